"""Resolution time and peak memory on the demo program at corpus scale 1, 4 and 16.

Each scale's store comes from kb.bench.corpus (the default pipeline over the generated program);
the resolve stage is then timed alone, without and with the embedding backstop, and once as an
incremental update of one re-ingested document. Peak memory is the Python heap high-water mark
(tracemalloc) of the run, which is what resolution itself allocates.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

from kb.bench import Measurement, benchmark
from kb.bench.corpus import demo_store
from kb.resolve.incremental import ResolutionState, stored_documents
from kb.resolve.pipeline import resolve_corpus, run_resolution

SCALES = (1, 4, 16)


@benchmark("resolve")
def resolution(out: Path) -> list[Measurement]:
    results: list[Measurement] = []
    for scale in SCALES:
        store, config, _ = demo_store(out / "cache", scale)
        for embeddings in (False, True):
            tracemalloc.start()
            start = time.perf_counter()
            outcome = run_resolution(store, config, use_embeddings=embeddings)
            seconds = time.perf_counter() - start
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            counts = outcome.counts()
            params = {"scale": scale, "embeddings": embeddings, "mentions": counts["mentions"], "entities": counts["total"]}
            results += [
                Measurement("resolve", "stage seconds (read, resolve, write)", seconds, "s", params),
                Measurement("resolve", "peak Python heap", peak / 2**20, "MiB", params),
                Measurement("resolve", "mentions/s", counts["mentions"] / seconds, "mentions/s", params),
            ]
        documents = stored_documents(store)
        state = ResolutionState()
        state.update(store, documents)
        start = time.perf_counter()
        state.update(store, documents[:1])
        resolve_corpus(state.corpus(), config["base_iri"])
        results.append(Measurement("resolve", "incremental update of one document", time.perf_counter() - start, "s",
                                   {"scale": scale, "documents": len(documents)}))
        store.close()
    return results
