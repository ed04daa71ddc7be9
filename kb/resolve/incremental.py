"""Incremental resolution: keep each document's mentions, re-read only what changed, re-cluster.

Clusters are global (one new document can join two old clusters), so patching the previous
clusters would need an undo for every merge. Instead the state keeps per-document slices of the
corpus (mentions, chunk text, document facts); an update re-reads only the added or re-ingested
documents from the store, drops removed ones, and re-runs the deterministic clustering over the
whole state. Reading the store is the dominant cost of a full run, so this is what an update saves;
the result is by construction the full rebuild's result, and the tests check that.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from kb import vocab
from kb.resolve.inputs import ChunkInfo, Corpus, DocumentInfo, LocalMention, read_corpus
from kb.store import GraphStore


class ResolutionState:
    """Per-document corpus slices, serialisable as JSON."""

    def __init__(self) -> None:
        self.slices: dict[str, Corpus] = {}
        self.hashes: dict[str, str] = {}

    def refresh(self, store: GraphStore) -> list[str]:
        """Re-read documents that are new or whose bytes changed (cmc:sha256), drop deleted ones.

        Returns the documents re-read. Re-running extraction without re-ingesting needs a fresh
        state (the hash is the document's, not the extractor's).
        """
        current = stored_hashes(store)
        changed = sorted(d for d, h in current.items() if self.hashes.get(d) != h)
        removed = sorted(set(self.slices) - set(current))
        self.update(store, changed, removed=removed)
        self.hashes = current
        return changed

    def update(self, store: GraphStore, documents: list[str], *, removed: list[str] = ()) -> None:  # type: ignore[assignment]
        """Re-read the given documents from the store; forget removed ones."""
        for doc in removed:
            self.slices.pop(doc, None)
        for doc in sorted(documents):
            self.slices[doc] = read_corpus(store, document=doc)

    def corpus(self) -> Corpus:
        mentions: list[LocalMention] = []
        chunks: dict[str, ChunkInfo] = {}
        documents: dict[str, DocumentInfo] = {}
        for doc in sorted(self.slices):
            part = self.slices[doc]
            mentions.extend(part.mentions)
            chunks.update(part.chunks)
            documents.update(part.documents)
        return Corpus(sorted(set(mentions)), chunks, documents)

    def save(self, path: Path) -> None:
        data = {doc: {"sha256": self.hashes.get(doc, ""), "mentions": [asdict(m) for m in part.mentions], "chunks": [asdict(c) for c in part.chunks.values()],
                      "documents": [asdict(d) for d in part.documents.values()]} for doc, part in sorted(self.slices.items())}
        path.write_text(json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> ResolutionState:
        state = cls()
        for doc, part in json.loads(path.read_text(encoding="utf-8")).items():
            state.hashes[doc] = part["sha256"]
            state.slices[doc] = Corpus(
                [LocalMention(**m) for m in part["mentions"]],
                {c["iri"]: ChunkInfo(**c) for c in part["chunks"]},
                {d["iri"]: DocumentInfo(**d) for d in part["documents"]},
            )
        return state


def stored_hashes(store: GraphStore) -> dict[str, str]:
    """Document IRI -> byte hash, for every document of the lexical layer."""
    query = vocab.sparql_prefixes() + """SELECT ?doc ?sha WHERE { GRAPH ?g { ?doc a doco:Document . OPTIONAL { ?doc cmc:sha256 ?sha } }
        FILTER(STRSTARTS(STR(?g), "urn:kb:graph:lexical/")) }"""
    return {row["doc"].value: (row["sha"].value if row["sha"] is not None else "") for row in store.query(query)}  # type: ignore[union-attr, index]


def stored_documents(store: GraphStore) -> list[str]:
    """Every document IRI of the lexical layer."""
    return sorted(stored_hashes(store))
