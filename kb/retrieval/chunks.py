"""Chunk records read from the lexical layer: the text and metadata the indexes are built from.

Everything the search path needs (document title, version, section path, page, language) is
copied into the record, so a query never has to go back to the store.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any

from pyoxigraph import NamedNode

from kb import vocab as V
from kb.store import GraphStore

CHUNKS_QUERY = V.sparql_prefixes() + """
SELECT ?g ?chunk ?text ?index ?doc ?kind ?page ?hash ?section ?path ?title ?version ?date ?report ?file ?lang ?doclang
WHERE {
  GRAPH ?g {
    ?chunk a cmc:Chunk ; nif:anchorOf ?text ; cmc:readingIndex ?index ; nif:referenceContext ?doc .
    OPTIONAL { ?chunk cmc:chunkKind ?kind }
    OPTIONAL { ?chunk cmc:page ?page }
    OPTIONAL { ?chunk cmc:contentHash ?hash }
    OPTIONAL { ?chunk dcterms:language ?lang }
    OPTIONAL { ?chunk dcterms:isPartOf ?section . ?section cmc:sectionPath ?path }
    OPTIONAL { ?doc dcterms:title ?title }
    OPTIONAL { ?doc pav:version ?version }
    OPTIONAL { ?doc dcterms:date ?date }
    OPTIONAL { ?doc dcterms:identifier ?report }
    OPTIONAL { ?doc cmc:fileName ?file }
    OPTIONAL { ?doc dcterms:language ?doclang }
  }
  FILTER(STRSTARTS(STR(?g), "urn:kb:graph:lexical/"))
}
"""

FINGERPRINT_QUERY = V.sparql_prefixes() + """
SELECT ?g ?chunk ?hash WHERE {
  GRAPH ?g {
    { ?chunk a cmc:Chunk ; nif:anchorOf ?text . OPTIONAL { ?chunk cmc:contentHash ?hash } }
    UNION
    { ?chunk a doco:Document ; cmc:sha256 ?hash }
  }
  FILTER(STRSTARTS(STR(?g), "urn:kb:graph:lexical/"))
}
"""


@dataclass(frozen=True)
class ChunkRecord:
    """One chunk with the metadata that filters, ranking and citations need."""

    iri: str
    graph: str
    document: str
    reading_index: int
    text: str
    kind: str = "text"
    page: int = 0
    content_hash: str = ""
    section: str = ""
    section_path: str = ""
    title: str = ""
    version: str = ""
    date: str = ""
    report_id: str = ""
    file_name: str = ""
    language: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChunkRecord:
        return cls(**data)


def _value(row: Any, name: str) -> str:
    term = row[name]
    return "" if term is None else str(term.value)


def read_chunks(store: GraphStore, graphs: list[str] | None = None) -> list[ChunkRecord]:
    """Chunk records of the given lexical graphs (all of them when ``graphs`` is None), sorted.

    Sorted by graph then reading index, so every index built from them has the same row order.
    """
    targets: list[dict[str, NamedNode] | None] = [None] if graphs is None else [{"g": NamedNode(g)} for g in graphs]
    records: dict[str, ChunkRecord] = {}
    for bindings in targets:
        for row in store.query(CHUNKS_QUERY, bindings=bindings):  # type: ignore[union-attr]
            iri = _value(row, "chunk")
            if iri in records:
                continue
            text = _value(row, "text")
            records[iri] = ChunkRecord(
                iri=iri,
                graph=_value(row, "g"),
                document=_value(row, "doc"),
                reading_index=int(_value(row, "index")),
                text=text,
                kind=_value(row, "kind") or "text",
                page=int(_value(row, "page") or 0),
                content_hash=_value(row, "hash") or hashlib.sha256(text.encode("utf-8")).hexdigest(),
                section=_value(row, "section"),
                section_path=_value(row, "path"),
                title=_value(row, "title"),
                version=_value(row, "version"),
                date=_value(row, "date"),
                report_id=_value(row, "report"),
                file_name=_value(row, "file"),
                language=(_value(row, "lang") or _value(row, "doclang")).lower(),
            )
    return sorted(records.values(), key=lambda r: (r.graph, r.reading_index))


def graph_fingerprints(store: GraphStore) -> dict[str, str]:
    """Per lexical graph, a hash over its chunks' content hashes and the source file's byte hash.

    The index keys each document on it: an unchanged fingerprint means nothing to re-read.
    """
    pairs: dict[str, list[str]] = {}
    for row in store.query(FINGERPRINT_QUERY):  # type: ignore[union-attr]
        pairs.setdefault(_value(row, "g"), []).append(_value(row, "chunk") + " " + _value(row, "hash"))
    return {g: hashlib.sha256("\n".join(sorted(set(p))).encode("utf-8")).hexdigest() for g, p in sorted(pairs.items())}
