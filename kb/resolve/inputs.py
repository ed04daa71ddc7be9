"""What resolution reads: mentions, the chunks and documents they sit in, and local relations.

Resolution is a stage of its own, so it reads the mentions graph and the lexical graphs from the
store; `corpus_from_mentions` builds the same corpus from the extractor's Python output for tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pyoxigraph import NamedNode

from kb import vocab
from kb.store import GraphStore

# mention class -> coarse kind; role classes map to 'role' (a role word) or 'role_assignment'
ENTITY_KINDS = ("substance", "planned_process", "unit_operation", "equipment", "impurity", "analytical_method", "batch")
CLASS_KINDS: dict[str, str] = {
    vocab.CHEMICAL_ENTITY_CLASS.value: "substance",
    vocab.PLANNED_PROCESS_CLASS.value: "planned_process",
    vocab.UNIT_OPERATION_CLASS.value: "unit_operation",
    vocab.DEVICE_CLASS.value: "equipment",
    vocab.IMPURITY_CLASS.value: "impurity",
    vocab.ANALYTICAL_METHOD_CLASS.value: "analytical_method",
    vocab.CONDITION_CLASS.value: "condition",
    vocab.BATCH_IDENTIFIER_CLASS.value: "batch",
}
ROLE_NAMES: dict[str, str] = {
    vocab.SOLVENT_ROLE.value: "solvent",
    vocab.REAGENT_ROLE.value: "reagent",
    vocab.CATALYST_ROLE.value: "catalyst",
    vocab.BASE_ROLE.value: "base",
    vocab.STARTING_MATERIAL_ROLE.value: "starting material",
    vocab.INTERMEDIATE_ROLE.value: "intermediate",
    vocab.PRODUCT_ROLE.value: "product",
    vocab.ANTISOLVENT_ROLE.value: "antisolvent",
    vocab.QUENCH_AGENT_ROLE.value: "quench agent",
}
ROLE_CLASSES: dict[str, str] = {name: iri for iri, name in ROLE_NAMES.items()}


@dataclass(frozen=True, order=True)
class LocalMention:
    """One mention as resolution sees it; `kind` is coarse, `role` set for role classes."""

    chunk: str
    start: int
    end: int
    cls: str
    text: str
    rule: str
    kind: str
    role: str = ""
    condition_kind: str = ""
    value: str = ""
    unit: str = ""

    @property
    def iri(self) -> str:
        local = self.cls.rsplit("#", 1)[-1].rsplit("/", 1)[-1]
        return f"{self.chunk}/mention/{self.start}-{self.end}-{local}"


@dataclass(frozen=True)
class ChunkInfo:
    iri: str
    document: str
    text: str
    section_path: str = ""
    reading_index: int = 0


@dataclass(frozen=True)
class DocumentInfo:
    """A document version: `series` is its report identifier (its own IRI when it has none)."""

    iri: str
    series: str
    version: str = ""
    title: str = ""
    date: str = ""
    name: str = ""


@dataclass(frozen=True, order=True)
class LocalRelation:
    """A relation between two mentions in one document: predicate is input/output/participant/part_of/precedes."""

    subject: str
    predicate: str
    object: str
    evidence: tuple[str, ...] = ()


@dataclass
class Corpus:
    mentions: list[LocalMention]
    chunks: dict[str, ChunkInfo]
    documents: dict[str, DocumentInfo]
    relations: list[LocalRelation] = field(default_factory=list)

    def document_of(self, mention: LocalMention) -> str:
        chunk = self.chunks.get(mention.chunk)
        return chunk.document if chunk else mention.chunk.split("/chunk/")[0]


def kind_of(cls: str, rule: str) -> tuple[str, str]:
    """(kind, role name) of a mention class; a role class over a substance span is an assignment."""
    if cls in ROLE_NAMES:
        return ("role_assignment" if rule.startswith("role.") else "role"), ROLE_NAMES[cls]
    return CLASS_KINDS.get(cls, ""), ""


def corpus_from_mentions(
    mentions: Iterable[object], chunks: Iterable[ChunkInfo], documents: Iterable[DocumentInfo]
) -> Corpus:
    """A corpus from extraction `Mention` objects (kb.stages.extract.mentions) and lexical facts."""
    local: list[LocalMention] = []
    for m in mentions:
        kind, role = kind_of(m.cls, m.rule)  # type: ignore[attr-defined]
        if not kind:
            continue
        attr = m.attr  # type: ignore[attr-defined]
        local.append(
            LocalMention(m.chunk, m.start, m.end, m.cls, m.text, m.rule, kind, role,  # type: ignore[attr-defined]
                         attr("condition"), attr("value"), attr("unit"))
        )
    return Corpus(sorted(set(local)), {c.iri: c for c in chunks}, {d.iri: d for d in documents})


MENTIONS_QUERY = """
SELECT * WHERE {
  GRAPH <%s> {
    ?t oa:hasSource ?chunk .
    ?m oa:hasTarget ?t .
    ?m cmc:mentionClass ?cls ; cmc:extractionRule ?rule .
    ?t oa:hasSelector ?q , ?p .
    ?q oa:exact ?text . ?p oa:start ?start ; oa:end ?end .
  }
}"""

# condition attributes in a query of their own: OPTIONALs in the mention query make every bound
# (per-chunk) lookup scan the whole graph
CONDITIONS_QUERY = """
SELECT * WHERE {
  GRAPH <%s> {
    ?t oa:hasSource ?chunk .
    ?m oa:hasTarget ?t ; cmc:conditionKind ?ckind .
    OPTIONAL { ?m cmc:numericValue ?value }
    OPTIONAL { ?m cmc:unit ?unit }
  }
}"""

CHUNKS_QUERY = """
SELECT * WHERE {
  GRAPH ?g {
    ?chunk a cmc:Chunk ; nif:referenceContext ?doc ; nif:anchorOf ?text ; cmc:readingIndex ?index ;
           dcterms:isPartOf ?parent .
    OPTIONAL { ?parent cmc:sectionPath ?path }
  }
}"""

DOCUMENTS_QUERY = """
SELECT * WHERE {
  GRAPH ?g {
    ?doc a doco:Document .
    OPTIONAL { ?doc dcterms:identifier ?id }
    OPTIONAL { ?doc pav:version ?version }
    OPTIONAL { ?doc dcterms:title ?title }
    OPTIONAL { ?doc dcterms:date ?date }
    OPTIONAL { ?doc cmc:fileName ?name }
  }
  FILTER(STRSTARTS(STR(?g), "urn:kb:graph:lexical/"))
  OPTIONAL { GRAPH <urn:kb:graph:versions> { ?doc dcterms:isVersionOf ?series } }
}"""


def _value(row: object, name: str) -> str:
    term = row[name]  # type: ignore[index]
    return "" if term is None else str(term.value)


def _mentions(store: GraphStore, graph: str, bindings: dict[str, NamedNode] | None) -> list[LocalMention]:
    prefixes = vocab.sparql_prefixes()
    conditions = {
        _value(row, "m"): (_value(row, "ckind"), _value(row, "value"), _value(row, "unit"))
        for row in store.query(prefixes + CONDITIONS_QUERY % graph, bindings=bindings)  # type: ignore[union-attr]
    }
    out: list[LocalMention] = []
    for row in store.query(prefixes + MENTIONS_QUERY % graph, bindings=bindings):  # type: ignore[union-attr]
        cls, rule = _value(row, "cls"), _value(row, "rule")
        kind, role = kind_of(cls, rule)
        if kind:
            out.append(LocalMention(
                _value(row, "chunk"), int(_value(row, "start")), int(_value(row, "end")), cls, _value(row, "text"), rule,
                kind, role, *conditions.get(_value(row, "m"), ("", "", "")),
            ))
    return out


def read_corpus(store: GraphStore, *, mentions_graph: str = vocab.GRAPH_MENTIONS, document: str | None = None) -> Corpus:
    """Mentions from the mentions graph, chunk text and section paths, document versions.

    With `document`, only that document's chunks are read, and mentions chunk by chunk (bound
    lookups), which keeps an incremental update proportional to the document, not the corpus.
    """
    prefixes = vocab.sparql_prefixes()
    bindings = {"doc": NamedNode(document)} if document else None
    all_chunks: dict[str, ChunkInfo] = {}
    for row in store.query(prefixes + CHUNKS_QUERY, bindings=bindings):  # type: ignore[union-attr]
        iri = _value(row, "chunk")
        all_chunks[iri] = ChunkInfo(iri, _value(row, "doc"), _value(row, "text"), _value(row, "path"), int(_value(row, "index")))
    if document:
        mentions = [m for iri in sorted(all_chunks) for m in _mentions(store, mentions_graph, {"chunk": NamedNode(iri)})]
    else:
        mentions = _mentions(store, mentions_graph, None)
    wanted = {m.chunk for m in mentions}
    chunks = {iri: chunk for iri, chunk in all_chunks.items() if iri in wanted}
    documents: dict[str, DocumentInfo] = {}
    for row in store.query(prefixes + DOCUMENTS_QUERY, bindings=bindings):  # type: ignore[union-attr]
        iri = _value(row, "doc")
        documents[iri] = DocumentInfo(iri, _value(row, "series") or _value(row, "id") or iri, _value(row, "version"),
                                      _value(row, "title"), _value(row, "date"), _value(row, "name"))
    return Corpus(sorted(set(mentions)), chunks, documents)
