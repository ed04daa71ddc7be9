"""Retrieval benchmarks: index build time, embedding throughput, query latency at 1x, 4x, 16x.

Scale 1 is the real demo program (generated, ingested into an in-memory store, indexed). Larger
scales replicate its chunk records under new document graphs (with the version shifted, so
replicas are distinct documents) and reuse their vectors with seeded noise: query latency
depends on corpus size and vocabulary, not on re-running the embedding model 16 times, which
is measured once, as chunks/s, at scale 1.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from kb.bench import Measurement, benchmark
from kb.config import Config, load_config
from kb.retrieval.chunks import ChunkRecord
from kb.retrieval.dense import embed, embed_query, passage_text
from kb.retrieval.evaluate import build_questions
from kb.retrieval.index import PassageIndex, build_index, open_index, write_index
from kb.retrieval.search import search

AREA = "retrieval"
SCALES = (1, 4, 16)
QUERIES = 200
SEED = 7


def replicate(index: PassageIndex, scale: int, folder: Path, config: Config) -> tuple[PassageIndex, float]:
    """The index's records copied ``scale`` times; returns the loaded copy and its build seconds."""
    rng = np.random.default_rng(SEED)
    records: list[ChunkRecord] = []
    ids: list[str] = []
    blocks = []
    for copy in range(scale):
        suffix = f"-x{copy}" if copy else ""
        for record in index.records:
            records.append(replace(record, iri=record.iri + suffix, graph=record.graph + suffix, document=record.document + suffix))
        ids.extend(iri + suffix for iri in index.dense.ids)
        noise = rng.normal(0.0, 0.02, index.dense.vectors.shape).astype(np.float32) if copy else 0.0
        block = index.dense.vectors + noise
        blocks.append(block / np.linalg.norm(block, axis=1, keepdims=True))
    order = sorted(range(len(records)), key=lambda i: (records[i].graph, records[i].reading_index))
    records = [records[i] for i in order]
    target = folder / f"scale{scale}"
    started = time.perf_counter()
    write_index(target, index.model, records, ids, np.vstack(blocks).astype(np.float32), {r.graph: "" for r in records})
    seconds = time.perf_counter() - started
    return open_index(config.with_values(index__path=str(target))), seconds


def latencies(index: PassageIndex, questions: list[str], config: Config, method: str) -> list[float]:
    """Seconds per query, query embedding included (its cache is cleared before each query)."""
    out = []
    for question in questions:
        embed_query.cache_clear()
        started = time.perf_counter()
        search(question, None, 10, config=config, index=index, method=method)
        out.append(time.perf_counter() - started)
    return out


@benchmark("retrieval")
def retrieval_bench(out: Path) -> list[Measurement]:
    from kb.demo.generate import generate
    from kb.ingest import ingest
    from kb.store.oxigraph_local import OxigraphLocalStore

    results: list[Measurement] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        generate(folder / "demo", seed=SEED, scale=1)
        config = load_config(toml_path=folder / "absent.toml", env={}, overrides={"index.path": str(folder / "index")})
        store = OxigraphLocalStore(None)
        ingest(store, [folder / "demo"], config)
        stats = build_index(store, config)
        results.append(Measurement(AREA, "index build (full)", stats.seconds, "s", {"scale": 1, "chunks": stats.chunks}))
        index = open_index(config)
        embedded = set(index.dense.ids)
        texts = [passage_text(r.section_path, r.text) for r in index.records if r.iri in embedded]

        started = time.perf_counter()
        embed(config["embedding.model"], texts, batch_size=config["embedding.batch_size"], threads=config["embedding.threads"])
        rate = len(texts) / (time.perf_counter() - started)
        results.append(Measurement(AREA, "embedding throughput", rate, "chunks/s", {"chunks": len(texts)}))
        gt = json.loads((folder / "demo" / "ground_truth.json").read_text())
        rng = np.random.default_rng(SEED)
        pool = [q.text for q in build_questions(gt)]
        questions = [pool[i] for i in sorted(rng.choice(len(pool), size=min(QUERIES, len(pool)), replace=False))]
        for scale in SCALES:
            scaled, seconds = replicate(index, scale, folder, config)
            params = {"scale": scale, "chunks": len(scaled.records)}
            results.append(Measurement(AREA, "keyword index write", seconds, "s", params))
            for method in ("keyword", "dense", "fused"):
                values = np.array(latencies(scaled, questions, config, method)) * 1000.0
                goal = "< 100 ms at scale 16" if method == "fused" else ""
                results.append(Measurement(AREA, f"{method} query p50", float(np.percentile(values, 50)), "ms", params))
                results.append(Measurement(AREA, f"{method} query p95", float(np.percentile(values, 95)), "ms", params, goal))
    return results
