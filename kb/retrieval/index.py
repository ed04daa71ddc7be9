"""The on-disk passage index: chunk records, BM25 and vectors, kept in step with the store.

Layout under ``index.path``: ``manifest.json`` (model, per-graph fingerprints), ``records.jsonl``
(one chunk a line, sorted by graph and reading index), ``keyword/`` (bm25s) and
``vectors.npy`` + ``vector_ids.json``. ``update_index`` re-reads only the lexical graphs whose
fingerprint changed, drops graphs that left the store, and re-embeds only chunks whose
(IRI, content hash) it has not embedded before; an index whose keyword version differs from
kb.retrieval.keyword.VERSION gets its BM25 part rebuilt even when no document changed.
``build_index`` recomputes everything. Both end in the same records, the same BM25 index and (up
to float rounding) the same vectors. A new index is written beside the old one and swapped in, so
readers never see a half-written index.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kb.config import Config
from kb.errors import StoreError
from kb.retrieval.chunks import ChunkRecord, graph_fingerprints, read_chunks
from kb.retrieval.dense import DenseIndex, embed, model_version, passage_text
from kb.retrieval.filters import Columns
from kb.retrieval.keyword import VERSION as KEYWORD_VERSION
from kb.retrieval.keyword import KeywordIndex
from kb.retrieval.normalise import fold, identifiers
from kb.store import GraphStore

FORMAT = 1
MANIFEST = "manifest.json"
RECORDS = "records.jsonl"
KEYWORD = "keyword"


@dataclass
class IndexStats:
    """What an index run did, for the CLI summary and the benchmark."""

    chunks: int = 0
    embedded: int = 0
    reused: int = 0
    unembedded: int = 0
    graphs_added: list[str] = field(default_factory=list)
    graphs_removed: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        return [
            f"chunks indexed: {self.chunks}",
            f"documents added or replaced: {len(self.graphs_added)}",
            f"documents removed: {len(self.graphs_removed)}",
            f"chunks embedded: {self.embedded}",
            f"vectors reused: {self.reused}",
            f"chunks below embedding threshold: {self.unembedded}",
            f"seconds: {self.seconds:.2f}",
        ]


@dataclass
class PassageIndex:
    """Everything a query needs, in memory."""

    folder: Path
    model: str
    records: list[ChunkRecord]
    keyword: KeywordIndex
    dense: DenseIndex
    fingerprints: dict[str, str]
    keyword_version: int = KEYWORD_VERSION

    def __post_init__(self) -> None:
        self.row_of = {r.iri: i for i, r in enumerate(self.records)}
        self.report_ids = sorted({r.report_id for r in self.records if r.report_id})
        self.codes = [identifiers(r.text) for r in self.records]
        self.text_key = text_keys(self.records)
        self.graph_of_file = {r.file_name: r.graph for r in self.records}
        self.columns = Columns(self.records)
        self.by_graph: dict[str, list[ChunkRecord]] = {}
        for record in self.records:
            self.by_graph.setdefault(record.graph, []).append(record)


def text_keys(records: list[ChunkRecord]) -> list[int]:
    """One id per distinct chunk text (case- and space-folded): fifteen report versions repeat
    most sentences verbatim, and search shows a repeated text once before any repeat."""
    keys: dict[str, int] = {}
    return [keys.setdefault(" ".join(fold(r.text).split()), len(keys)) for r in records]


def read_index(folder: Path) -> PassageIndex | None:
    """The index stored in a folder, or None when there is none (or of an older format)."""
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        return None
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("format") != FORMAT:
        return None
    with (folder / RECORDS).open(encoding="utf-8") as fh:
        records = [ChunkRecord.from_json(json.loads(line)) for line in fh if line.strip()]
    rows = {r.iri: i for i, r in enumerate(records)}
    return PassageIndex(
        folder=folder,
        model=manifest["model"],
        records=records,
        keyword=KeywordIndex.load(folder / KEYWORD, len(records)),
        dense=DenseIndex.load(folder, rows, len(records)),
        fingerprints=manifest["graphs"],
        keyword_version=manifest.get("keyword", 1),
    )


def open_index(config: Config) -> PassageIndex:
    """The index at ``index.path``; a clear error when it has not been built yet."""
    folder = Path(config["index.path"])
    index = read_index(folder)
    if index is None:
        raise StoreError(f"no passage index at {folder}", hint="run 'kb index build' after ingesting documents")
    return index


def embeddable(record: ChunkRecord, min_chars: int) -> bool:
    return len(record.text.strip()) >= min_chars


def vectors_for(
    records: list[ChunkRecord], config: Config, previous: dict[tuple[str, str], np.ndarray], stats: IndexStats
) -> tuple[list[str], np.ndarray]:
    """Vectors of every embeddable record: reused by (IRI, content hash) or freshly embedded."""
    wanted = [r for r in records if embeddable(r, config["embedding.min_chars"])]
    stats.unembedded = len(records) - len(wanted)
    todo = [r for r in wanted if (r.iri, r.content_hash) not in previous]
    fresh = embed(
        config["embedding.model"],
        [passage_text(r.section_path, r.text) for r in todo],
        batch_size=config["embedding.batch_size"],
        threads=config["embedding.threads"],
    )
    computed = {(r.iri, r.content_hash): fresh[i] for i, r in enumerate(todo)}
    stats.embedded, stats.reused = len(todo), len(wanted) - len(todo)
    rows = [computed.get((r.iri, r.content_hash), previous.get((r.iri, r.content_hash))) for r in wanted]
    matrix = np.vstack(rows).astype(np.float32) if rows else np.zeros((0, 0), dtype=np.float32)
    return [r.iri for r in wanted], matrix


def write_index(folder: Path, model: str, records: list[ChunkRecord], ids: list[str], vectors: np.ndarray, fingerprints: dict[str, str]) -> None:
    """Write into a sibling folder, then swap it in."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.with_name(folder.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / KEYWORD).mkdir(parents=True)
    with (staging / RECORDS).open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
    KeywordIndex.build(records).save(staging / KEYWORD)
    rows = {r.iri: i for i, r in enumerate(records)}
    DenseIndex(ids, vectors, rows, len(records)).save(staging)
    manifest = {
        "format": FORMAT, "model": model, "keyword": KEYWORD_VERSION, "graphs": fingerprints,
        "chunks": len(records), "vectors": len(ids),
    }
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    retired = folder.with_name(folder.name + ".old")
    shutil.rmtree(retired, ignore_errors=True)
    if folder.exists():
        folder.rename(retired)
    staging.rename(folder)
    shutil.rmtree(retired, ignore_errors=True)


def build_index(store: GraphStore, config: Config) -> IndexStats:
    """Full rebuild from the store: every chunk re-read and re-embedded."""
    started = time.perf_counter()
    stats = IndexStats()
    fingerprints = graph_fingerprints(store)
    records = read_chunks(store)
    ids, vectors = vectors_for(records, config, {}, stats)
    write_index(Path(config["index.path"]), model_version(config["embedding.model"]), records, ids, vectors, fingerprints)
    stats.chunks = len(records)
    stats.graphs_added = sorted(fingerprints)
    stats.seconds = time.perf_counter() - started
    return stats


def update_index(store: GraphStore, config: Config) -> IndexStats:
    """Incremental update: only new, replaced or removed documents are touched."""
    started = time.perf_counter()
    folder = Path(config["index.path"])
    model = model_version(config["embedding.model"])
    old = read_index(folder)
    if old is not None and old.model != model:
        old = None
    old_prints = old.fingerprints if old else {}
    fingerprints = graph_fingerprints(store)
    changed = sorted(g for g, p in fingerprints.items() if old_prints.get(g) != p)
    removed = sorted(g for g in old_prints if g not in fingerprints)
    stats = IndexStats(graphs_added=changed, graphs_removed=removed)
    if old is not None and not changed and not removed and old.keyword_version == KEYWORD_VERSION:
        stats.chunks = len(old.records)
        stats.reused = len(old.dense.ids)
        stats.seconds = time.perf_counter() - started
        return stats
    kept = [r for r in (old.records if old else []) if r.graph in fingerprints and r.graph not in changed]
    records = sorted(kept + (read_chunks(store, changed) if changed else []), key=lambda r: (r.graph, r.reading_index))
    previous: dict[tuple[str, str], np.ndarray] = {}
    if old is not None:
        hashes = {r.iri: r.content_hash for r in old.records}
        previous = {(iri, hashes[iri]): vector for iri, vector in old.dense.vector_of().items()}
    ids, vectors = vectors_for(records, config, previous, stats)
    write_index(folder, model, records, ids, vectors, fingerprints)
    stats.chunks = len(records)
    stats.seconds = time.perf_counter() - started
    return stats
