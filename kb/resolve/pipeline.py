"""One resolution run: read the corpus, cluster, check categories, build and write the domain layer.

The CLI (`kb resolve`), the pipeline stage and the tests all call `run_resolution` or
`resolve_corpus`; nothing here prints.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb import vocab
from kb.config import Config
from kb.resolve.category import split_inconsistent
from kb.resolve.domain import DomainLayer, build_domain, domain_quads
from kb.resolve.inputs import Corpus, read_corpus
from kb.resolve.log import log_quads
from kb.resolve.rules import ChunkVectors, Resolution, merge_counts, resolve
from kb.store import GraphStore


@dataclass
class Outcome:
    corpus: Corpus
    resolution: Resolution
    layer: DomainLayer

    def counts(self) -> dict[str, object]:
        """The figures `kb resolve` prints and the benchmark records."""
        by_type = Counter(e.kind for e in self.layer.entities.values())
        by_type["role"] = self.layer.role_clusters
        singletons = sum(1 for c in self.resolution.clusters if len(c) == 1)
        return {
            "mentions": len(self.resolution.mentions),
            "entities": dict(sorted(by_type.items())),
            "role_individuals": len(self.layer.role_individuals),
            "merges": merge_counts(self.resolution.merges),
            "blocked": len(self.resolution.blocked),
            "splits": self.resolution.splits,
            "singletons": singletons,
            "relations": len(self.layer.relations),
            "conditions": len(self.layer.conditions),
            **self.layer.anchoring(),
        }


def chunk_vector_source(corpus: Corpus, model: str, index_dir: Path | None = None) -> ChunkVectors:
    """Chunk vectors from the retrieval index when present, the rest embedded with the same model."""

    def vectors(chunks: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        if index_dir is not None:
            for ids_file in sorted(index_dir.glob("**/vector_ids.json")):
                ids = json.loads(ids_file.read_text())
                matrix = np.load(ids_file.parent / "vectors.npy")
                found.update({iri: matrix[i] for i, iri in enumerate(ids) if iri in set(chunks)})
        missing = [c for c in chunks if c not in found and c in corpus.chunks]
        if missing:
            from kb.retrieval.dense import embed

            rows = embed(model, [corpus.chunks[c].text for c in missing])
            found.update({c: rows[i] for i, c in enumerate(missing)})
        return {c: np.round(v.astype(np.float64), 4) for c, v in found.items()}

    return vectors


def resolve_corpus(
    corpus: Corpus, base: str, *, chunk_vectors: ChunkVectors | None = None, threshold: float = 0.92
) -> Outcome:
    resolution = split_inconsistent(resolve(corpus, chunk_vectors=chunk_vectors, threshold=threshold))
    return Outcome(corpus, resolution, build_domain(corpus, resolution, base))


def write_outcome(store: GraphStore, outcome: Outcome) -> None:
    """Replace the domain and resolution graphs as wholes (each atomically)."""
    store.replace_graph(vocab.GRAPH_DOMAIN, domain_quads(outcome.layer))
    store.replace_graph(vocab.GRAPH_RESOLUTION, log_quads(outcome.resolution, outcome.layer))


def run_resolution(
    store: GraphStore, config: Config, *, use_embeddings: bool = True, threshold: float = 0.92, state: Path | None = None
) -> Outcome:
    """Read mentions and lexical facts from the store, resolve, write both graphs.

    With `state`, only documents added or changed since the saved state are read from the store
    (kb/resolve/incremental.py); the result is the same as without it.
    """
    if state is not None:
        from kb.resolve.incremental import ResolutionState

        saved = ResolutionState.load(state) if state.is_file() else ResolutionState()
        saved.refresh(store)
        saved.save(state)
        corpus = saved.corpus()
    else:
        corpus = read_corpus(store)
    vectors = chunk_vector_source(corpus, config["embedding.model"], Path(config["index.path"])) if use_embeddings else None
    outcome = resolve_corpus(corpus, config["base_iri"], chunk_vectors=vectors, threshold=threshold)
    write_outcome(store, outcome)
    return outcome
