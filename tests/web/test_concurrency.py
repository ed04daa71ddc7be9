"""Readers querying while documents are ingested through the server: no errors, no half documents."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
import requests

from kb.config import Config
from kb.ingest import ingest
from kb.stats import all_quads
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.store.sparql_remote import SparqlRemoteStore
from kb.web.server import BackgroundServer

PER_GRAPH = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"


@pytest.mark.slow
def test_readers_see_whole_documents_only(live: BackgroundServer, sample_folder: Path, tmp_path: Path, config: Config) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(3):  # distinct names give distinct document graphs
        for source in sorted(sample_folder.glob("*.docx")):
            shutil.copy(source, corpus / f"{source.stem}-{i}{source.suffix}")
    reference = OxigraphLocalStore(None)
    ingest(reference, [corpus], config)
    expected: dict[str, int] = {}
    for quad in all_quads(reference):
        expected[quad.graph_name.value] = expected.get(quad.graph_name.value, 0) + 1
    assert len(expected) == 3

    seen: list[list[dict[str, int]]] = [[] for _ in range(3)]
    errors: list[str] = []
    done = threading.Event()

    def read(log: list[dict[str, int]]) -> None:
        session = requests.Session()
        while not done.is_set():
            response = session.get(live.sparql, params={"query": PER_GRAPH},
                                   headers={"Accept": "application/sparql-results+json"})
            if response.status_code != 200:
                errors.append(f"{response.status_code}: {response.text[:200]}")
                continue
            rows = response.json()["results"]["bindings"]
            log.append({r["g"]["value"]: int(r["n"]["value"]) for r in rows})
            time.sleep(0.005)

    readers = [threading.Thread(target=read, args=(log,)) for log in seen]
    for reader in readers:
        reader.start()
    writer = SparqlRemoteStore(live.sparql, live.sparql, live.gsp, token="test-token-5")
    try:
        first = ingest(writer, [corpus], config)
        again = ingest(writer, [corpus], config, force=True)  # replaces every graph while readers read
    finally:
        done.set()
        for reader in readers:
            reader.join(timeout=30)
    assert first.documents == 3 and again.documents == 3 and not first.failures
    assert errors == []
    for log in seen:
        assert len(log) > 5
        for snapshot in log:
            for graph, n in snapshot.items():
                assert n == expected[graph], f"half-written graph {graph}: {n} of {expected[graph]} quads"
        assert [len(s) for s in log] == sorted(len(s) for s in log)  # documents only ever appear
        assert log[-1] == expected
