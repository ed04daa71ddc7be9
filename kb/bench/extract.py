"""Extraction throughput on the demo program at scale 1 and 4: chunks/s, pages/s, stage seconds."""

from __future__ import annotations

import time
from pathlib import Path

from kb import vocab
from kb.bench import Measurement, benchmark
from kb.bench.corpus import demo_store

SCALES = (1, 4)


def _pages(store) -> int:  # type: ignore[no-untyped-def]
    rows = store.query(vocab.sparql_prefixes() + "SELECT (SUM(?n) AS ?pages) WHERE { GRAPH ?g { ?d prism:pageCount ?n } }")
    value = next(iter(rows))["pages"]
    return int(value.value) if value is not None else 0


@benchmark("extract")
def extraction(out: Path) -> list[Measurement]:
    from kb.stages.extract.pipeline import build_pipeline, extract_chunk
    from kb.stages.extract.stage import extract_store, read_chunks

    build_pipeline()
    results: list[Measurement] = []
    for scale in SCALES:
        store, _, _ = demo_store(out / "cache", scale)
        chunks = read_chunks(store)
        pages = _pages(store)
        start = time.perf_counter()
        for chunk in chunks:
            extract_chunk(chunk)
        rules = time.perf_counter() - start
        start = time.perf_counter()
        result = extract_store(store)
        stage = time.perf_counter() - start
        params = {"scale": scale, "chunks": len(chunks), "pages": pages, "mentions": len(result.mentions)}
        results += [
            Measurement("extract", "chunks/s", len(chunks) / rules, "chunks/s", params),
            Measurement("extract", "pages/s", pages / rules, "pages/s", params),
            Measurement("extract", "stage seconds (read, extract, relations, write)", stage, "s", params,
                        goal="scale 1 under 60 s"),
        ]
        store.close()
    return results
