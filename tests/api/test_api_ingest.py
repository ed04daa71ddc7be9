"""Upload through the API: the document becomes searchable and answerable without a restart, and a
concurrent reader sees it either absent or complete, never half-written."""

from __future__ import annotations

import threading
import time
from typing import Any

import requests

from kb.iris import doc_id
from kb.vocab import lexical_graph

NOTE = b"""# Filtration of the SNAr product

## Step 9 work-up

The filter aid Celatom-77 was used for the step 9 clarification at 45 \xc2\xb0C.

The cake was washed twice with cold 2-MeTHF.

## Result

Filtration took 3 h per batch on the 100 L scale.
"""


def chunk_count(api: Any, graph: str) -> int:
    query = f"SELECT (COUNT(?c) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?c a <https://w3id.org/cmc-kb/ontology#Chunk> }} }}"
    body = requests.get(api("/sparql"), params={"query": query}, headers={"Accept": "application/sparql-results+json"}, timeout=30).json()
    return int(body["results"]["bindings"][0]["n"]["value"])


def test_upload_is_searchable_and_answerable_and_never_seen_half_written(api, auth) -> None:
    graph = lexical_graph(doc_id("filtration-note.md"))
    assert chunk_count(api, graph) == 0
    seen: list[int] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            seen.append(chunk_count(api, graph))

    watcher = threading.Thread(target=reader, daemon=True)
    watcher.start()
    started = requests.post(api("/api/ingest"), files={"files": ("filtration-note.md", NOTE, "text/markdown")}, headers=auth, timeout=60)
    assert started.status_code == 202, started.text
    job = started.json()
    progress = set()
    deadline = time.monotonic() + 300
    while job["state"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        progress.add(job["progress"]["stage"])
        time.sleep(0.2)
        job = requests.get(api(started.headers["Location"]), timeout=30).json()
    stop.set()
    watcher.join(timeout=30)
    assert job["state"] == "done", job
    assert job["result"]["documents"] == 1 and job["result"]["failures"] == [] and job["progress"]["done"] == job["progress"]["total"] == 1
    final = chunk_count(api, graph)
    assert final >= 3
    assert seen and set(seen) <= {0, final}, f"a reader saw a partial document: {sorted(set(seen))}"

    passages = requests.get(api("/api/search"), params={"q": "Celatom-77 filter aid", "k": 3}, timeout=60).json()["passages"]
    assert "Celatom-77" in passages[0]["text"] and passages[0]["document"].endswith(graph.rsplit("/", 1)[1])
    answer = requests.post(api("/api/ask"), json={"question": "At what temperature was the Celatom-77 clarification run?"}, timeout=120).json()
    assert answer["found_evidence"] and any("Celatom-77" in c["quote"] for c in answer["citations"]), (answer["route"], answer["answer"], answer["trace"][:3])
    docs = {d["id"] for d in requests.get(api("/api/documents"), timeout=30).json()["documents"]}
    assert graph.rsplit("/", 1)[1] in docs
