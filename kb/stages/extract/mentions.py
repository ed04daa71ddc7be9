"""What extraction produces: chunks in, typed mentions with exact offsets out, as RDF and JSON.

A mention is the auditable unit of the domain layer: chunk IRI, character offsets within the
chunk text, the verbatim span, the ontology class and the rule that fired. Its IRI is derived from
exactly those facts, so two runs over the same chunks write the same quads.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode, Quad

from kb import vocab

XSD_NON_NEGATIVE = NamedNode(vocab.XSD + "nonNegativeInteger")
XSD_DECIMAL = NamedNode(vocab.XSD + "decimal")

# coarse mention kind -> ontology class IRI (ARCHITECTURE.md vocabulary table, kb/vocab.py)
KIND_CLASSES: dict[str, str] = {
    "substance": vocab.CHEMICAL_ENTITY_CLASS.value,
    "planned_process": vocab.PLANNED_PROCESS_CLASS.value,
    "unit_operation": vocab.UNIT_OPERATION_CLASS.value,
    "equipment": vocab.DEVICE_CLASS.value,
    "impurity": vocab.IMPURITY_CLASS.value,
    "analytical_method": vocab.ANALYTICAL_METHOD_CLASS.value,
    "condition": vocab.CONDITION_CLASS.value,
    "batch": vocab.BATCH_IDENTIFIER_CLASS.value,
}

# role name (as chemists write it) -> role class IRI
ROLE_CLASSES: dict[str, str] = {
    "solvent": vocab.SOLVENT_ROLE.value,
    "reagent": vocab.REAGENT_ROLE.value,
    "catalyst": vocab.CATALYST_ROLE.value,
    "base": vocab.BASE_ROLE.value,
    "starting material": vocab.STARTING_MATERIAL_ROLE.value,
    "intermediate": vocab.INTERMEDIATE_ROLE.value,
    "product": vocab.PRODUCT_ROLE.value,
    "antisolvent": vocab.ANTISOLVENT_ROLE.value,
    "quench agent": vocab.QUENCH_AGENT_ROLE.value,
}


@dataclass(frozen=True)
class Cell:
    """One table cell as the lexical layer stores it."""

    row: int
    column: int
    text: str
    is_header: bool = False
    column_header: str = ""


@dataclass(frozen=True)
class Chunk:
    """The extractor's input: one chunk of the lexical layer."""

    iri: str
    text: str
    kind: str = "text"
    cells: tuple[Cell, ...] = ()
    document: str = ""
    section: str = ""
    reading_index: int = 0


@dataclass(frozen=True, order=True)
class Mention:
    """One typed span; `kind` is the coarse type ('substance', 'role', ...), `cls` its class IRI.

    For role mentions `kind` is 'role' and `attrs` carries ('role', name); a role assignment to a
    substance is a second mention over the substance's span with the role class and rule
    'role.<pattern>'.
    """

    chunk: str
    start: int
    end: int
    cls: str
    text: str
    kind: str
    rule: str
    attrs: tuple[tuple[str, str], ...] = field(default=())

    def attr(self, key: str, default: str = "") -> str:
        return next((v for k, v in self.attrs if k == key), default)

    @property
    def iri(self) -> str:
        return f"{self.chunk}/mention/{self.start}-{self.end}-{local_name(self.cls)}"

    def to_json(self) -> dict[str, object]:
        return {
            "chunk": self.chunk,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "kind": self.kind,
            "class": self.cls,
            "rule": self.rule,
            "attrs": dict(self.attrs),
        }


def local_name(iri: str) -> str:
    """Last path or fragment segment of an IRI (for readable, deterministic mention IRIs)."""
    return iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def sort_mentions(mentions: Iterable[Mention]) -> list[Mention]:
    """The one order every output uses: chunk, start, end, class."""
    return sorted(set(mentions), key=lambda m: (m.chunk, m.start, m.end, m.cls, m.rule))


def mention_quads(mentions: Iterable[Mention], graph: str = vocab.GRAPH_MENTIONS) -> list[Quad]:
    """Web Annotation quads (no blank nodes) for the mentions graph, following docs/model.md."""
    g = NamedNode(graph)
    quads: list[Quad] = []
    for m in sort_mentions(mentions):
        node = NamedNode(m.iri)
        target = NamedNode(m.iri + "/target")
        quote = NamedNode(m.iri + "/quote")
        position = NamedNode(m.iri + "/position")
        quads += [
            Quad(node, vocab.TYPE, vocab.OA_ANNOTATION, g),
            Quad(node, vocab.OA_HAS_TARGET, target, g),
            Quad(node, vocab.MENTION_CLASS, NamedNode(m.cls), g),
            Quad(node, vocab.EXTRACTION_RULE, Literal(m.rule), g),
            Quad(target, vocab.TYPE, vocab.OA_SPECIFIC_RESOURCE, g),
            Quad(target, vocab.OA_HAS_SOURCE, NamedNode(m.chunk), g),
            Quad(target, vocab.OA_HAS_SELECTOR, quote, g),
            Quad(target, vocab.OA_HAS_SELECTOR, position, g),
            Quad(quote, vocab.TYPE, vocab.OA_TEXT_QUOTE_SELECTOR, g),
            Quad(quote, vocab.OA_EXACT, Literal(m.text), g),
            Quad(position, vocab.TYPE, vocab.OA_TEXT_POSITION_SELECTOR, g),
            Quad(position, vocab.OA_START, Literal(str(m.start), datatype=XSD_NON_NEGATIVE), g),
            Quad(position, vocab.OA_END, Literal(str(m.end), datatype=XSD_NON_NEGATIVE), g),
        ]
        refined = m.attr("refined")
        if refined:
            quads.append(Quad(node, vocab.REFINED_CLASS, NamedNode(vocab.OBO + refined), g))
        if m.kind == "condition":
            quads.append(Quad(node, vocab.CONDITION_KIND, Literal(m.attr("condition")), g))
            if m.attr("value"):
                quads.append(Quad(node, vocab.NUMERIC_VALUE, Literal(m.attr("value"), datatype=XSD_DECIMAL), g))
                quads.append(Quad(node, vocab.UNIT, Literal(m.attr("unit")), g))
    return quads


def mentions_json(mentions: Iterable[Mention]) -> str:
    """Sorted, stable JSON (one document's export is this over its chunks' mentions)."""
    return json.dumps([m.to_json() for m in sort_mentions(mentions)], indent=1, sort_keys=True, ensure_ascii=False)
