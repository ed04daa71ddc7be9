"""Endpoint throughput: `kb serve` beside `oxigraph serve` on the same demo data, same run, same client.

Both servers run as their own processes over an on-disk copy of the demo program; a thread-pool
load generator on loopback sends a small SELECT and a template-style join for a fixed time at 1,
4 and 16 concurrent clients. Goal (issue 5): at least half of oxigraph serve's queries/s.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests
from pyoxigraph import RdfFormat, Store

from kb.bench import Measurement, benchmark
from kb.vocab import sparql_prefixes

AREA = "endpoint"
CLIENTS = (1, 4, 16)
SECONDS = 3.0
QUERIES = {
    "small select": """SELECT ?doc ?title ?version WHERE {
  GRAPH ?g { ?doc a doco:Document ; dcterms:title ?title . OPTIONAL { ?doc pav:version ?version } }
} ORDER BY ?doc LIMIT 10""",
    "template join": """SELECT ?title ?path ?page ?text WHERE {
  GRAPH ?g {
    ?chunk a cmc:Chunk ; nif:anchorOf ?text ; cmc:page ?page ; nif:referenceContext ?doc ; dcterms:isPartOf ?section .
    ?section cmc:sectionPath ?path .
    ?doc dcterms:title ?title .
  }
  FILTER(CONTAINS(LCASE(?text), "methf"))
} ORDER BY ?title ?page ?text LIMIT 20""",
}


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_up(url: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if requests.get(url, params={"query": "ASK {}"}, timeout=2).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


@contextmanager
def running(command: list[str], query_url: str) -> Iterator[str]:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_up(query_url)
        yield query_url
    finally:
        process.terminate()
        process.wait(timeout=30)


def load(url: str, query: str, clients: int, seconds: float) -> tuple[float, list[float], int]:
    """Queries/s, latencies (s) and the row count of one answer, from ``clients`` threads."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    rows: list[int] = []
    stop = time.monotonic() + seconds
    headers = {"Accept": "application/sparql-results+json"}

    def client(log: list[float]) -> None:
        session = requests.Session()
        while time.monotonic() < stop:
            started = time.perf_counter()
            response = session.post(url, data={"query": query}, headers=headers, timeout=60)
            log.append(time.perf_counter() - started)
            response.raise_for_status()
            if not rows:
                rows.append(len(response.json()["results"]["bindings"]))

    threads = [threading.Thread(target=client, args=(log,)) for log in latencies]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    flat = [x for log in latencies for x in log]
    return len(flat) / elapsed, flat, rows[0] if rows else 0


def percentile(values: list[float], pct: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(pct) - 1] if len(values) > 1 else values[0]


@benchmark("endpoint")
def endpoint_bench(out: Path) -> list[Measurement]:
    from kb.bench.corpus import demo_store

    memory, _, _ = demo_store(out / ".cache", 1)
    prefixes = sparql_prefixes()
    results: list[Measurement] = []
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "demo.nq"
        with dump.open("wb") as fh:
            memory.raw.dump(fh, RdfFormat.N_QUADS)
        quads = len(memory.raw)
        for name in ("kb", "oxigraph"):
            disk = Store(str(Path(tmp) / name))
            disk.bulk_load(path=str(dump), format=RdfFormat.N_QUADS)
            disk.flush()
            del disk
        kb_port, ox_port = free_port(), free_port()
        servers = {
            "kb serve": ([sys.executable, "-c", "from kb.cli import main; main()", "serve", "--store",
                          str(Path(tmp) / "kb"), "--port", str(kb_port), "--set", "server.local_writes=false"],
                         f"http://127.0.0.1:{kb_port}/sparql"),
            "oxigraph serve": ([str(Path(sys.executable).with_name("oxigraph")), "serve", "--location",
                                str(Path(tmp) / "oxigraph"), "--bind", f"127.0.0.1:{ox_port}"],
                               f"http://127.0.0.1:{ox_port}/query"),
        }
        throughput: dict[tuple[str, str, int], float] = {}
        for server, (command, url) in servers.items():
            with running(command, url):
                for query_name, body in QUERIES.items():
                    load(url, prefixes + body, 1, 0.5)  # warm up caches
                    for clients in CLIENTS:
                        qps, latencies, rows = load(url, prefixes + body, clients, SECONDS)
                        throughput[(server, query_name, clients)] = qps
                        params = {"server": server, "clients": clients, "quads": quads, "rows": rows}
                        results += [
                            Measurement(AREA, f"{query_name} throughput", qps, "queries/s", params),
                            Measurement(AREA, f"{query_name} latency p50", 1000 * percentile(latencies, 50), "ms", params),
                            Measurement(AREA, f"{query_name} latency p95", 1000 * percentile(latencies, 95), "ms", params),
                        ]
    for query_name in QUERIES:
        for clients in CLIENTS:
            ratio = throughput[("kb serve", query_name, clients)] / throughput[("oxigraph serve", query_name, clients)]
            results.append(Measurement(AREA, f"{query_name} kb/oxigraph throughput", ratio, "ratio",
                                       {"clients": clients}, goal=">= 0.5"))
    return results
