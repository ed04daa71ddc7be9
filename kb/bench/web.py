"""Web benchmarks: HTTP latency of the JSON API and the ask page over the real server, and how long
an upload takes until its document is searchable (ingest + index update, no restart)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from kb.bench import Measurement, benchmark
from kb.web.testing import ENTITY, SampleSite

AREA = "web"
ROUNDS = 20
TOKEN = "bench-token"
UPLOAD = b"# Bench note\n\nThe filter aid Benchite-42 was used for the clarification at 40 \xc2\xb0C.\n"


def timings(session, url: str, rounds: int, **kwargs) -> list[float]:  # type: ignore[no-untyped-def]
    """Wall-clock milliseconds per request (after one warm-up request)."""
    method = session.post if "json" in kwargs else session.get
    method(url, timeout=120, **kwargs).raise_for_status()
    found = []
    for _ in range(rounds):
        started = time.perf_counter()
        method(url, timeout=120, **kwargs).raise_for_status()
        found.append((time.perf_counter() - started) * 1000)
    return found


@benchmark("web.api_latency")
def api_latency(out: Path) -> list[Measurement]:
    import requests

    with tempfile.TemporaryDirectory(prefix="kb-bench-web-") as tmp:
        site = SampleSite.start(Path(tmp), **{"server.token": TOKEN})
        try:
            session = requests.Session()
            doc = session.get(site("/api/documents"), timeout=60).json()["documents"][0]["id"]
            cases = {
                "health": (site("/api/health"), {}),
                "search": (site("/api/search"), {"params": {"q": "oxime formation temperature", "k": 10}}),
                "ask (lexical)": (site("/api/ask"), {"json": {"question": "At what temperature was the oxime formed?"}}),
                "entity": (site("/api/entity"), {"params": {"iri": ENTITY + "water"}}),
                "document": (site(f"/api/documents/{doc}"), {}),
                "ask page": (site("/"), {"params": {"q": "At what temperature was the oxime formed?"}}),
            }
            results = []
            for name, (url, kwargs) in cases.items():
                values = sorted(timings(session, url, ROUNDS, **kwargs))
                results.append(Measurement(AREA, f"{name} median", statistics.median(values), "ms", {"rounds": ROUNDS}))
                results.append(Measurement(AREA, f"{name} p95", values[int(0.95 * (len(values) - 1))], "ms", {"rounds": ROUNDS}))
            started = time.perf_counter()
            job = session.post(site("/api/ingest"), files={"files": ("bench-note.md", UPLOAD, "text/markdown")},
                               headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60).json()
            while job["state"] in ("queued", "running"):
                time.sleep(0.1)
                job = session.get(site(f"/api/jobs/{job['id']}"), timeout=60).json()
            hits = session.get(site("/api/search"), params={"q": "Benchite-42", "k": 1}, timeout=60).json()["passages"]
            if job["state"] != "done" or "Benchite-42" not in hits[0]["text"]:
                raise RuntimeError(f"upload did not become searchable: {job}")
            results.append(Measurement(AREA, "upload to searchable", time.perf_counter() - started, "s", {"files": 1}))
            session.close()
            return results
        finally:
            site.stop()
