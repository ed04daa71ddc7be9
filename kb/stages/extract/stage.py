"""The extract stage: read every chunk from the store, write the mentions graph in one replace.

Chunks are read through SPARQL over the lexical model (docs/model.md), extracted in a stable order,
and the whole mentions graph is replaced atomically, so re-running on an unchanged store writes
byte-identical quads.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pyoxigraph import Literal

from kb import vocab
from kb.registry import StageContext, StageResult, stages
from kb.stages.extract.mentions import (
    Cell,
    Chunk,
    Mention,
    mention_quads,
    sort_mentions,
)
from kb.stages.extract.pipeline import extract_chunk
from kb.stages.extract.relations import Relation, extract_relations, relations_json
from kb.store import GraphStore

T = TypeVar("T")
Progress = Callable[[Iterable[T], int], Iterator[T]]

CHUNKS_QUERY = vocab.sparql_prefixes() + """
SELECT ?chunk ?text ?kind ?doc ?index ?section WHERE {
  GRAPH ?g {
    ?chunk a cmc:Chunk ; nif:anchorOf ?text ; cmc:chunkKind ?kind .
    OPTIONAL { ?chunk cmc:readingIndex ?index }
    OPTIONAL { ?chunk nif:referenceContext ?doc }
    OPTIONAL { ?chunk dcterms:isPartOf ?part . ?part cmc:sectionPath ?section }
  }
}
"""
CELLS_QUERY = vocab.sparql_prefixes() + """
SELECT ?chunk ?row ?column ?text ?header ?columnHeader WHERE {
  GRAPH ?g {
    ?chunk cmc:hasCell ?cell .
    ?cell cmc:rowIndex ?row ; cmc:columnIndex ?column ; cmc:cellText ?text .
    OPTIONAL { ?cell cmc:isHeader ?header }
    OPTIONAL { ?cell cmc:columnHeader ?columnHeader }
  }
}
"""


def _value(term: object) -> str:
    return term.value if term is not None else ""  # type: ignore[attr-defined]


def read_chunks(store: GraphStore) -> list[Chunk]:
    """Every chunk of every lexical graph with its cells, sorted by (document, reading index, IRI)."""
    cells: dict[str, list[Cell]] = defaultdict(list)
    for row in store.query(CELLS_QUERY):  # type: ignore[union-attr]
        header = row["header"]
        cells[row["chunk"].value].append(
            Cell(
                row=int(row["row"].value),
                column=int(row["column"].value),
                text=row["text"].value,
                is_header=header is not None and header.value in {"true", "1"},
                column_header=_value(row["columnHeader"]),
            )
        )
    chunks: dict[str, Chunk] = {}
    for row in store.query(CHUNKS_QUERY):  # type: ignore[union-attr]
        iri = row["chunk"].value
        index = row["index"]
        chunk = Chunk(
            iri=iri,
            text=row["text"].value,
            kind=row["kind"].value,
            cells=tuple(sorted(cells.get(iri, []), key=lambda c: (c.row, c.column))),
            document=_value(row["doc"]),
            section=_value(row["section"]),
            reading_index=int(index.value) if isinstance(index, Literal) else 0,
        )
        previous = chunks.get(iri)
        if previous is None or chunk.section > previous.section:
            chunks[iri] = chunk
    return sorted(chunks.values(), key=lambda c: (c.document, c.reading_index, c.iri))


@dataclass
class ExtractionResult:
    chunks: int = 0
    mentions: list[Mention] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)

    def per_class(self) -> dict[str, int]:
        """Mention counts per coarse kind (roles per role name), sorted by kind."""
        counts = Counter(m.kind if m.kind != "role" else f"role:{m.attr('role')}" for m in self.mentions)
        return dict(sorted(counts.items()))


def extract_store(store: GraphStore, *, progress: Progress | None = None) -> ExtractionResult:
    """Extract mentions and step relations from every chunk and replace the mentions graph."""
    chunks = read_chunks(store)
    iterator: Iterable[Chunk] = progress(chunks, len(chunks)) if progress else chunks
    by_chunk: dict[str, list[Mention]] = {}
    for chunk in iterator:
        by_chunk[chunk.iri] = extract_chunk(chunk)
    mentions = sort_mentions(m for ms in by_chunk.values() for m in ms)
    relations = extract_relations(chunks, by_chunk)
    store.replace_graph(vocab.GRAPH_MENTIONS, mention_quads(mentions))
    return ExtractionResult(chunks=len(chunks), mentions=mentions, relations=relations)


def export_json(result: ExtractionResult, chunks: list[Chunk], out_dir: Path) -> list[Path]:
    """One sorted JSON file per document: its mentions and its step relations."""
    out_dir.mkdir(parents=True, exist_ok=True)
    document_of = {c.iri: c.document or c.iri.split("/chunk/")[0] for c in chunks}
    grouped: dict[str, list[Mention]] = defaultdict(list)
    for m in result.mentions:
        grouped[document_of.get(m.chunk, m.chunk.split("/chunk/")[0])].append(m)
    paths = []
    for document in sorted(grouped):
        relations = [r for r in result.relations if r.document == document]
        payload = {
            "document": document,
            "mentions": json.loads(json.dumps([m.to_json() for m in sort_mentions(grouped[document])])),
            "relations": json.loads(relations_json(relations)),
        }
        path = out_dir / (document.rstrip("/").rsplit("/", 1)[-1] + ".json")
        path.write_text(json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


@stages.register("extract.mentions.v1", requires=["graph:lexical"], produces=["graph:mentions"])
def extract_mentions(ctx: StageContext) -> StageResult:
    """Extract typed mentions with exact spans from every chunk into urn:kb:graph:mentions."""
    from kb.progress import progress_bar

    result = extract_store(ctx.store, progress=progress_bar("extract") if ctx.show_progress else None)
    ctx.artifacts["mentions"] = result.mentions
    ctx.artifacts["relations"] = result.relations
    lines = [f"chunks: {result.chunks}", f"mentions: {len(result.mentions)}", f"relations: {len(result.relations)}"]
    lines += [f"  {kind}: {count}" for kind, count in result.per_class().items()]
    return StageResult(lines=lines)
