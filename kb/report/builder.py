"""The inferred-consistency report: one data structure, rendered as JSON, Markdown and HTML.

Verdict first (FAIL when the reasoner finds the domain layer inconsistent or SHACL reports a
Violation), then the reasoner section (explanation with source passages, unsatisfiable classes,
inferred types), SHACL results grouped by shape, and the ontology QC section.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from pyoxigraph import DefaultGraph, NamedNode, Quad, Triple

from kb.report.qc import QcProblem
from kb.report.sources import SourceIndex
from kb.stages.reason.stage import ReasonResult
from kb.stages.validate.shacl import ValidationOutcome
from kb.store.protocol import GraphStore
from kb.store.serialize import sorted_nquads
from kb.vocab import GRAPH_VALIDATION, RDF

MAX_INFERRED_SHOWN = 200
_TYPE = RDF + "type"


def _axiom_text(index: SourceIndex, triples: tuple[Triple, ...] | list[Triple]) -> str:
    first = triples[0]
    parts = [index.label(t.value) if isinstance(t, NamedNode) else str(t) for t in (first.subject, first.predicate, first.object)]
    text = " ".join(parts)
    return text + (f" (+{len(triples) - 1} triples of a class expression)" if len(triples) > 1 else "")


def _node(index: SourceIndex, iri: str) -> dict[str, Any]:
    return {"iri": iri, "label": index.label(iri), "sources": [asdict(s) for s in index.sources(iri)]}


def build_report(store: GraphStore, reasoning: ReasonResult, validation: ValidationOutcome, qc: list[QcProblem]) -> dict[str, Any]:
    """Everything a reviewer needs, as plain JSON-ready data (deterministic order)."""
    index = SourceIndex(store)
    outcome = reasoning.outcome
    explanation = reasoning.explanation
    inferred_types = [t for t in outcome.inferred if t.predicate.value == _TYPE]
    reasoner: dict[str, Any] = {
        "engine": outcome.engine,
        "consistent": outcome.consistent,
        "seconds": round(outcome.seconds, 3),
        "domain_triples": reasoning.abox_size,
        "ontology_triples": reasoning.tbox_size,
        "not_reasoned_over": dict(sorted(reasoning.dropped.items())),
        "inferred_count": len(outcome.inferred),
        "inferred_types": [
            {"individual": _node(index, t.subject.value), "type": index.label(t.object.value), "type_iri": t.object.value}
            for t in inferred_types[:MAX_INFERRED_SHOWN]
        ],
        "unsatisfiable_classes": [{"iri": c, "label": index.label(c)} for c in outcome.unsatisfiable],
        "clashes": [{"individual": c.individual, "classes": [index.label(x) for x in c.classes], "rule": c.rule} for c in outcome.clashes],
        "explanation": None,
    }
    if explanation is not None:
        reasoner["explanation"] = {
            "individuals": [_node(index, iri) for iri in explanation.individuals],
            "domain_axioms": [_axiom_text(index, (t,)) for t in explanation.abox],
            "ontology_axioms": [_axiom_text(index, a) for a in explanation.tbox],
            "minimal": explanation.minimal,
            "checker": explanation.checker,
            "checks": explanation.checks,
        }
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in validation.results:
        groups[(r.severity, r.shape, r.message)].append(
            {"focus": _node(index, r.focus), "path": r.path, "value": r.value, "result": r.iri}
        )
    severity_counts = Counter(r.severity for r in validation.results)
    shacl = {
        "conforms": not validation.results,
        "counts": {k: severity_counts.get(k, 0) for k in ("Violation", "Warning", "Info")},
        "groups": [
            {"severity": sev, "shape": shape, "shape_label": index.label(shape), "message": msg, "count": len(items), "results": items}
            for (sev, shape, msg), items in groups.items()
        ],
    }
    level_counts = Counter(p.level for p in qc)
    inconsistent = not outcome.consistent
    violations = severity_counts.get("Violation", 0)
    if inconsistent:
        verdict, summary = "FAIL", "The domain layer is logically inconsistent."
    elif violations:
        verdict, summary = "FAIL", f"Consistent, but {violations} SHACL violation(s)."
    else:
        verdict, summary = "PASS", "Consistent and no SHACL violations."
    if verdict == "PASS" and (severity_counts.get("Warning") or level_counts.get("ERROR")):
        summary += " See warnings below."
    return {
        "verdict": verdict,
        "summary": summary,
        "consistent": outcome.consistent,
        "violations": violations,
        "reasoner": reasoner,
        "shacl": shacl,
        "qc": {
            "counts": {k: level_counts.get(k, 0) for k in ("ERROR", "WARN", "INFO")},
            "problems": [asdict(p) | {"label": index.label(p.subject)} for p in qc],
        },
    }


def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("kb.report", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_markdown(report: dict[str, Any]) -> str:
    return _environment().get_template("report.md.j2").render(r=report)


def render_html(report: dict[str, Any]) -> str:
    return _environment().get_template("report.html.j2").render(r=report)


def write_report(store: GraphStore, report: dict[str, Any], out_dir: Path) -> list[Path]:
    """report.json, report.md, report.html and report.nt (the sh:ValidationReport graph, sorted)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "report.json": json.dumps(report, indent=2, sort_keys=True) + "\n",
        "report.md": render_markdown(report),
        "report.html": render_html(report),
    }
    written = []
    for name, text in paths.items():
        (out_dir / name).write_text(text, encoding="utf-8")
        written.append(out_dir / name)
    triples = store.query("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }", bindings={"g": NamedNode(GRAPH_VALIDATION)})
    rdf = sorted_nquads(Quad(t.subject, t.predicate, t.object, DefaultGraph()) for t in triples)  # type: ignore[union-attr]
    (out_dir / "report.nt").write_bytes(rdf)
    written.append(out_dir / "report.nt")
    return written
