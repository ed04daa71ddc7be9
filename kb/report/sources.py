"""Links from a node in a finding back to the passages that justify it (chunk, document, page, quote)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pyoxigraph import NamedNode

from kb.store.protocol import GraphStore
from kb.vocab import sparql_prefixes

MAX_SOURCES = 3

_MENTIONS = sparql_prefixes() + """
SELECT DISTINCT ?node ?chunk ?doc ?page ?quote WHERE {
  GRAPH <urn:kb:graph:mentions> {
    ?mention oa:hasBody ?node ; oa:hasTarget ?target .
    ?target oa:hasSource ?chunk .
    OPTIONAL { ?target oa:hasSelector ?selector . ?selector oa:exact ?quote . }
  }
  OPTIONAL { GRAPH ?lexical { ?chunk cmc:page ?page . OPTIONAL { ?chunk nif:referenceContext ?doc . } } }
} ORDER BY ?chunk LIMIT 3"""
_CHUNK = sparql_prefixes() + """
SELECT ?node ?chunk ?doc ?page ?quote WHERE {
  GRAPH ?lexical { ?node a cmc:Chunk . BIND(?node AS ?chunk) OPTIONAL { ?node cmc:page ?page . } OPTIONAL { ?node nif:referenceContext ?doc . }
                   OPTIONAL { ?node nif:anchorOf ?quote . } }
} LIMIT 1"""
_LABELS = sparql_prefixes() + """
SELECT ?node ?label WHERE { GRAPH ?g { ?node skos:prefLabel|rdfs:label ?label . } } ORDER BY ?node ?label"""


@dataclass(frozen=True)
class Source:
    """One supporting passage."""

    chunk: str
    document: str
    page: str
    quote: str


class SourceIndex:
    """Looks up passages and labels, caching per node."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.labels: dict[str, str] = {}
        for row in store.query(_LABELS):  # type: ignore[union-attr]
            self.labels.setdefault(row["node"].value, row["label"].value)
        self.sources = lru_cache(maxsize=None)(self._sources)

    def label(self, iri: str) -> str:
        """Label when known, else the IRI's local name."""
        return self.labels.get(iri) or iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]

    def _sources(self, iri: str) -> tuple[Source, ...]:
        if not iri.startswith(("http", "urn:")):
            return ()
        node = {"node": NamedNode(iri)}
        rows = list(self.store.query(_CHUNK, bindings=node))  # type: ignore[arg-type]
        if not rows:
            rows = list(self.store.query(_MENTIONS, bindings=node))  # type: ignore[arg-type]
        out = []
        for row in rows[:MAX_SOURCES]:
            out.append(
                Source(
                    chunk=row["chunk"].value,
                    document=row["doc"].value if row["doc"] else "",
                    page=row["page"].value if row["page"] else "",
                    quote=(row["quote"].value if row["quote"] else "")[:300],
                )
            )
        return tuple(out)
