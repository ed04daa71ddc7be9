"""OWL 2 RL materialisation with `reasonable` (Rust), for graphs HermiT is too slow for.

Trade-off: RL rules are sound but incomplete for OWL 2 DL (no reasoning by cases, no existential
individuals), so some inconsistencies and inferred types that HermiT finds are missed. It runs in
process, in seconds on 100k individuals. Consistency is checked with the RL rules that detect
clashes: an individual in two disjoint classes (cax-dw), in owl:Nothing (cls-nothing2), or
related to itself by an irreflexive property (prp-irp).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable

import reasonable
from pyoxigraph import BlankNode, Literal, NamedNode, Triple
from rdflib import BNode, URIRef
from rdflib import Literal as RdfLiteral
from rdflib.term import Node

from kb.stages.reason.outcome import Clash, Outcome
from kb.vocab import OWL, RDF, RDFS

_TYPE = RDF + "type"
_SUBCLASS = RDFS + "subClassOf"
_DISJOINT = OWL + "disjointWith"
_NOTHING = OWL + "Nothing"
_THING = OWL + "Thing"
_IRREFLEXIVE = OWL + "IrreflexiveProperty"
_SCHEMA_TYPES = {OWL + x for x in ("Class", "ObjectProperty", "DatatypeProperty", "AnnotationProperty",
                                   "Ontology", "Restriction", "TransitiveProperty", "FunctionalProperty",
                                   "IrreflexiveProperty", "SymmetricProperty", "AsymmetricProperty",
                                   "InverseFunctionalProperty", "ReflexiveProperty")}
_SCHEMA_TYPES.add(RDFS + "Class")
_SCHEMA_TYPES.add(RDF + "Property")


def to_rdflib(term: NamedNode | BlankNode | Literal) -> Node:
    if isinstance(term, NamedNode):
        return URIRef(term.value)
    if isinstance(term, BlankNode):
        return BNode(term.value)
    if term.language:
        return RdfLiteral(term.value, lang=term.language)
    return RdfLiteral(term.value, datatype=URIRef(term.datatype.value))


def to_oxigraph(term: Node) -> NamedNode | BlankNode | Literal:
    if isinstance(term, URIRef):
        return NamedNode(str(term))
    if isinstance(term, BNode):
        return BlankNode(str(term))
    assert isinstance(term, RdfLiteral)
    if term.language:
        return Literal(str(term), language=term.language)
    return Literal(str(term), datatype=NamedNode(str(term.datatype)) if term.datatype else None)


def materialise(triples: Iterable[Triple]) -> list[tuple[Node, Node, Node]]:
    """Every triple entailed under the OWL 2 RL rules (asserted ones included).

    Literal-valued triples (labels, definitions, data values) are left out: none of the clash
    rules below reads them, and they double the cost of the closure. The one inference lost is
    a type derived from a datatype property's domain.
    """
    reasoner = reasonable.PyReasoner()
    reasoner.from_graph(
        [(to_rdflib(t.subject), to_rdflib(t.predicate), to_rdflib(t.object)) for t in triples if not isinstance(t.object, Literal)]
    )
    return reasoner.reason()


def _closure(parents: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for parent in parents.get(todo.pop(), ()):
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return seen


def find_clashes(entailed: list[tuple[Node, Node, Node]]) -> tuple[list[Clash], list[str]]:
    """Clashing individuals and unsatisfiable named classes in an RL closure."""
    types: dict[str, set[str]] = defaultdict(set)
    parents: dict[str, set[str]] = defaultdict(set)
    disjoint: dict[str, set[str]] = defaultdict(set)
    irreflexive: set[str] = set()
    edges: list[tuple[str, str, str]] = []
    for s, p, o in entailed:
        if not isinstance(s, URIRef):
            continue
        if p == URIRef(_TYPE) and isinstance(o, URIRef):
            types[str(s)].add(str(o))
            if str(o) == _IRREFLEXIVE:
                irreflexive.add(str(s))
        elif p == URIRef(_SUBCLASS) and isinstance(o, URIRef):
            parents[str(s)].add(str(o))
        elif p == URIRef(_DISJOINT) and isinstance(o, URIRef):
            disjoint[str(s)].add(str(o))
            disjoint[str(o)].add(str(s))
        elif isinstance(o, URIRef) and s == o:
            edges.append((str(s), str(p), str(o)))
    clashes: list[Clash] = []
    classes = set(parents) | set(disjoint)
    for individual, kinds in sorted(types.items()):
        if kinds & _SCHEMA_TYPES:
            continue
        if _NOTHING in kinds:
            clashes.append(Clash(individual, (_NOTHING,), "cls-nothing2"))
        for a in sorted(kinds):
            for b in sorted(disjoint.get(a, set()) & kinds):
                if a < b:
                    clashes.append(Clash(individual, (a, b), "cax-dw"))
    for s, p, _ in sorted(edges):
        if p in irreflexive:
            clashes.append(Clash(s, (p,), "prp-irp"))
    unsatisfiable = []
    for cls in sorted(classes):
        supers = _closure(parents, cls) | {cls}
        if _NOTHING in supers or any(disjoint.get(a, set()) & supers for a in supers):
            unsatisfiable.append(cls)
    return clashes, [c for c in unsatisfiable if c != _NOTHING]


def individuals_of(triples: list[Triple]) -> set[NamedNode]:
    """Named subjects that are not classes, properties or ontologies."""
    schema = {
        t.subject
        for t in triples
        if (t.predicate.value == _TYPE and t.object.value in _SCHEMA_TYPES)
        or (t.predicate.value != _TYPE and t.predicate.value.startswith((RDFS, OWL)))
    }
    return {t.subject for t in triples if isinstance(t.subject, NamedNode)} - schema


def run_rl(triples: list[Triple]) -> Outcome:
    """Materialise and check; inferred triples are those about individuals that were not asserted."""
    started = time.perf_counter()
    entailed = materialise(triples)
    clashes, unsatisfiable = find_clashes(entailed)
    asserted = set(triples)
    individuals = individuals_of(triples)
    inferred = set()
    for s, p, o in entailed:
        if isinstance(o, BNode) or (str(p) == _TYPE and str(o) == _THING):
            continue
        triple = Triple(to_oxigraph(s), to_oxigraph(p), to_oxigraph(o))  # type: ignore[arg-type]
        if triple.subject in individuals and triple not in asserted:
            inferred.add(triple)
    return Outcome(
        "rl",
        consistent=not clashes,
        inferred=[] if clashes else sorted(inferred, key=str),
        unsatisfiable=unsatisfiable,
        clashes=clashes,
        seconds=time.perf_counter() - started,
    )


def rl_consistent(triples: list[Triple]) -> bool:
    """Consistency under the RL clash rules (fast; used by the explanation search)."""
    clashes, _ = find_clashes(materialise(triples))
    return not clashes
