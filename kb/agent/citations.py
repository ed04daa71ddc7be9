"""Turn chunk IRIs and spans into citations: document, version, section path, page, verbatim quote."""

from __future__ import annotations

from pyoxigraph import NamedNode

from kb import vocab as V
from kb.agent.answer import Citation
from kb.stages.extract.spans import sentence_spans
from kb.store import GraphStore

CHUNK_CONTEXT = V.sparql_prefixes() + """
SELECT * WHERE {
  GRAPH ?g {
    ?chunk nif:anchorOf ?text ; cmc:page ?page ; nif:referenceContext ?doc .
    ?doc dcterms:title ?title .
    OPTIONAL { ?doc pav:version ?version }
    OPTIONAL { ?chunk dcterms:isPartOf ?s . ?s cmc:sectionPath ?path }
  }
}"""
MENTION_SPANS = V.sparql_prefixes() + """
SELECT * WHERE {
  GRAPH <urn:kb:graph:mentions> {
    ?mention oa:hasTarget ?t . ?t oa:hasSource ?chunk ; oa:hasSelector ?p .
    ?p a oa:TextPositionSelector ; oa:start ?start ; oa:end ?end .
  }
}"""
SUBSTANCE_NAMES = V.sparql_prefixes() + """
SELECT ?start ?end ?label WHERE {
  GRAPH <urn:kb:graph:mentions> { ?m oa:hasTarget ?t . ?t oa:hasSource ?chunk ; oa:hasSelector ?p . ?p oa:start ?start ; oa:end ?end . }
  GRAPH ?anchors { ?m oa:hasBody ?entity }
  GRAPH <urn:kb:graph:domain> { ?entity a obo:CHEBI_24431 ; skos:prefLabel|skos:altLabel ?label }
}"""


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence (or table row) of ``text`` that holds the span, verbatim."""
    spans = sentence_spans(text)
    left = max((s for s, e in spans if s <= start), default=0)
    right = min((e for s, e in spans if e >= end), default=len(text))
    return text[left:right].strip()


class CitationBuilder:
    """Caches chunk context and substance names so a list answer with many items costs one query per chunk."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.chunks: dict[str, dict[str, str]] = {}
        self.names: dict[str, list[tuple[int, int, str]]] = {}

    def chunk(self, iri: str) -> dict[str, str] | None:
        if iri not in self.chunks:
            rows = list(self.store.query(CHUNK_CONTEXT, bindings={"chunk": NamedNode(iri)}))
            if not rows:
                return None
            row = rows[0]
            self.chunks[iri] = {
                "text": row["text"].value,
                "page": row["page"].value,
                "doc": row["doc"].value,
                "title": row["title"].value,
                "version": row["version"].value if row["version"] is not None else "",
                "path": row["path"].value if row["path"] is not None else "",
            }
        return self.chunks[iri]

    def cite(self, iri: str, start: int | None = None, end: int | None = None, quote: str | None = None) -> Citation | None:
        context = self.chunk(iri)
        if context is None:
            return None
        text = context["text"]
        if quote is None:
            quote = sentence_around(text, start, end) if start is not None and end is not None else text
        return Citation(iri, context["doc"], context["title"], context["version"], context["path"], int(context["page"]), quote)

    def substance_names(self, iri: str) -> list[tuple[int, int, str]]:
        """(start, end, label) for every substance mention in the chunk, one row per label of its entity."""
        if iri not in self.names:
            rows = self.store.query(SUBSTANCE_NAMES, bindings={"chunk": NamedNode(iri)})
            self.names[iri] = sorted({(int(r["start"].value), int(r["end"].value), r["label"].value) for r in rows})
        return self.names[iri]

    def cite_mention(self, mention: str) -> Citation | None:
        rows = list(self.store.query(MENTION_SPANS, bindings={"mention": NamedNode(mention)}))
        if not rows:
            return None
        row = rows[0]
        return self.cite(row["chunk"].value, int(row["start"].value), int(row["end"].value))
