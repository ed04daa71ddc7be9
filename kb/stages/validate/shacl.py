"""SHACL validation of the lexical and domain layers with pySHACL, report stored as RDF.

pySHACL 0.40 validates a pyoxigraph Store directly (union of its graphs). We give it an in-memory
Store holding exactly the asserted graphs (lexical, mentions, domain) and the ontology graphs,
copied through the GraphStore protocol, so the reasoner's inferred graph and old reports never
mask a defect, and a remote store works the same way. No rdflib copy of the data is made.
The report is written to ``urn:kb:graph:validation`` with skolem IRIs (hash of focus node, path,
shape and message), so re-validating unchanged data gives byte-identical exports.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pyshacl
import rdflib
from pyoxigraph import Literal, NamedNode, Quad, Store
from rdflib.namespace import SH

from kb.errors import StageError
from kb.ontology import ontology_graphs
from kb.registry import StageContext, StageResult, stages
from kb.stages.reason.inputs import graph_triples
from kb.store.protocol import GraphStore
from kb.vocab import (
    GRAPH_DOMAIN,
    GRAPH_LEXICAL_PREFIX,
    GRAPH_MENTIONS,
    GRAPH_VALIDATION,
    RDF,
    XSD,
)
from kb.vocab import SH as SH_NS

SHAPES_DIR = Path(__file__).resolve().parents[3] / "shapes"
SHAPE_FILES: tuple[str, ...] = ("lexical.ttl", "domain.ttl")
REPORT_IRI = "urn:kb:validation:report"
SEVERITY_ORDER = {"Violation": 0, "Warning": 1, "Info": 2}


@dataclass(frozen=True)
class ShaclResult:
    """One validation result, flattened for the report."""

    iri: str
    focus: str
    path: str
    value: str
    shape: str
    component: str
    severity: str
    message: str
    value_is_iri: bool = False


@dataclass
class ValidationOutcome:
    """All results, sorted by severity then focus node."""

    results: list[ShaclResult]

    @property
    def violations(self) -> list[ShaclResult]:
        return [r for r in self.results if r.severity == "Violation"]


def load_shapes(paths: list[Path] | None = None) -> rdflib.Graph:
    """The shapes graph (``shapes/*.ttl`` by default)."""
    graph = rdflib.Graph()
    for path in paths or [SHAPES_DIR / name for name in SHAPE_FILES]:
        try:
            graph.parse(path, format="turtle")
        except (OSError, SyntaxError, ValueError) as exc:
            raise StageError(f"{path}: cannot read shapes: {exc}") from exc
    return graph


def validation_graphs(store: GraphStore) -> list[str]:
    """The graphs SHACL sees: lexical, mentions, domain and ontology graphs."""
    keep = {GRAPH_DOMAIN, GRAPH_MENTIONS, *ontology_graphs(store)}
    return [g for g in store.graphs() if g in keep or g.startswith(GRAPH_LEXICAL_PREFIX)]


def scoped_copy(store: GraphStore, graphs: list[str]) -> Store:
    """An in-memory pyoxigraph Store with the given graphs (what pySHACL validates)."""
    copy = Store()
    for graph in graphs:
        name = NamedNode(graph)
        copy.extend(Quad(t.subject, t.predicate, t.object, name) for t in graph_triples(store, graph))
    return copy


def _text(node: rdflib.term.Node | None) -> str:
    if node is None or isinstance(node, rdflib.BNode):
        return ""
    return str(node)


def _results(report: rdflib.Graph) -> list[ShaclResult]:
    out = []
    for result in report.subjects(rdflib.RDF.type, SH.ValidationResult):
        focus = _text(report.value(result, SH.focusNode))
        path = _text(report.value(result, SH.resultPath))
        shape = _text(report.value(result, SH.sourceShape))
        message = _text(report.value(result, SH.resultMessage))
        value = report.value(result, SH.value)
        key = f"{focus}\n{path}\n{shape}\n{message}".encode()
        out.append(
            ShaclResult(
                iri=f"urn:kb:validation:result/{hashlib.sha256(key).hexdigest()[:20]}",
                focus=focus,
                path=path,
                value=_text(value),
                shape=shape,
                component=_text(report.value(result, SH.sourceConstraintComponent)),
                severity=_text(report.value(result, SH.resultSeverity)).rsplit("#", 1)[-1],
                message=message,
                value_is_iri=isinstance(value, rdflib.URIRef),
            )
        )
    unique = {r.iri: r for r in out}
    return sorted(unique.values(), key=lambda r: (SEVERITY_ORDER.get(r.severity, 9), r.focus, r.shape, r.message))


def sh(local: str) -> NamedNode:
    return NamedNode(SH_NS + local)


def report_quads(outcome: ValidationOutcome) -> list[Quad]:
    """The sh:ValidationReport as quads in the validation graph, without blank nodes."""
    g = NamedNode(GRAPH_VALIDATION)
    report = NamedNode(REPORT_IRI)
    conforms = "false" if outcome.results else "true"
    quads = [
        Quad(report, NamedNode(RDF + "type"), sh("ValidationReport"), g),
        Quad(report, sh("conforms"), Literal(conforms, datatype=NamedNode(XSD + "boolean")), g),
    ]
    for r in outcome.results:
        node = NamedNode(r.iri)
        quads += [
            Quad(report, sh("result"), node, g),
            Quad(node, NamedNode(RDF + "type"), sh("ValidationResult"), g),
            Quad(node, sh("resultSeverity"), sh(r.severity), g),
            Quad(node, sh("resultMessage"), Literal(r.message), g),
        ]
        for prop, value in (("focusNode", r.focus), ("resultPath", r.path), ("sourceShape", r.shape),
                            ("sourceConstraintComponent", r.component)):
            if value:
                quads.append(Quad(node, sh(prop), NamedNode(value), g))
        if r.value:
            quads.append(Quad(node, sh("value"), NamedNode(r.value) if r.value_is_iri else Literal(r.value), g))
    return quads


def validate(store: GraphStore, *, shapes: list[Path] | None = None) -> ValidationOutcome:
    """Validate the asserted layers against the shapes and store the report graph.

    A non-conforming graph is a result, not an exception.

    Raises:
        StageError: the shapes cannot be read or pySHACL could not run.
    """
    shapes_graph = load_shapes(shapes)
    data = scoped_copy(store, validation_graphs(store))
    try:
        _, report, text = pyshacl.validate(
            data, shacl_graph=shapes_graph, advanced=True, allow_warnings=True, allow_infos=True
        )
    except Exception as exc:  # pySHACL raises bare exceptions for broken shapes or engine failures
        raise StageError(f"SHACL validation could not run: {exc}") from exc
    if not isinstance(report, rdflib.Graph):
        raise StageError(f"SHACL validation could not run: {text}")
    outcome = ValidationOutcome(_results(report))
    store.replace_graph(GRAPH_VALIDATION, report_quads(outcome))
    return outcome


@stages.register("validate.shacl.v1", requires=["graph:lexical", "graph:domain"], produces=["graph:validation"])
def validate_stage(ctx: StageContext) -> StageResult:
    """Validate with the shapes in shapes/; every Violation is a failure."""
    outcome = validate(ctx.store)
    counts = {s: sum(1 for r in outcome.results if r.severity == s) for s in SEVERITY_ORDER}
    lines = [", ".join(f"{n} {s.lower()}(s)" for s, n in counts.items()) + f" in {GRAPH_VALIDATION}"]
    return StageResult(lines=lines, failures=[f"{r.focus}: {r.message}" for r in outcome.violations])
