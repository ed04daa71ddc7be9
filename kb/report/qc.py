"""Ontology quality checks in the spirit of ROBOT's ``report`` (default profile levels).

Checks the own module (``urn:kb:graph:ontology``); deprecation is read from every ontology graph
and checked against the domain graph. Levels follow ROBOT: ERROR must be fixed, WARN should be,
INFO is advice.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from pyoxigraph import NamedNode

from kb.store.protocol import GraphStore
from kb.vocab import CMC, GRAPH_DOMAIN, GRAPH_ONTOLOGY

_DEFINITION = "http://purl.obolibrary.org/obo/IAO_0000115"
_XREF = "http://www.geneontology.org/formats/oboInOwl#hasDbXref"
_CURIE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*:[^\s]+$")
LEVELS = ("ERROR", "WARN", "INFO")


@dataclass(frozen=True)
class QcProblem:
    level: str
    rule: str
    subject: str
    value: str


_ENTITIES = """
SELECT ?e ?kind ?g WHERE { GRAPH ?g { ?e a ?kind . FILTER(isIRI(?e))
  FILTER(?kind IN (owl:Class, owl:ObjectProperty, owl:DatatypeProperty, owl:AnnotationProperty)) } }"""
_ANNOTATIONS = """
SELECT ?e ?p ?v ?g WHERE { GRAPH ?g { ?e ?p ?v . FILTER(isIRI(?e))
  FILTER(?p IN (rdfs:label, obo:IAO_0000115, oboInOwl:hasDbXref, rdfs:subClassOf)) } }"""
_DEPRECATED_IN_USE = """
SELECT DISTINCT ?term ?d WHERE {
  GRAPH ?o { ?term owl:deprecated true } FILTER(STRSTARTS(STR(?o), "urn:kb:graph:ontology"))
  GRAPH ?d { { ?s a ?term } UNION { ?s ?term ?x } }
}"""
_PREFIXES = (
    "PREFIX owl: <http://www.w3.org/2002/07/owl#>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    "PREFIX obo: <http://purl.obolibrary.org/obo/>\nPREFIX oboInOwl: <http://www.geneontology.org/formats/oboInOwl#>\n"
)


def ontology_qc(store: GraphStore, *, graph: str = GRAPH_ONTOLOGY) -> list[QcProblem]:
    """Run every check; problems sorted by level, rule and subject."""
    g = {"g": NamedNode(graph)}
    kinds: dict[str, set[str]] = defaultdict(set)
    for row in store.query(_PREFIXES + _ENTITIES, bindings=g):  # type: ignore[union-attr]
        kinds[row["e"].value].add(row["kind"].value)
    labels: dict[str, list[tuple[str, str]]] = defaultdict(list)
    props: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in store.query(_PREFIXES + _ANNOTATIONS, bindings=g):  # type: ignore[union-attr]
        entity, prop, value = row["e"].value, row["p"].value, row["v"]
        props[entity][prop].append(value.value)
        if prop.endswith("#label"):
            labels[entity].append((value.value, getattr(value, "language", None) or ""))
    problems: list[QcProblem] = []
    by_label: dict[str, set[str]] = defaultdict(set)
    for entity in sorted(kinds):
        own = entity.startswith(CMC)
        if not labels.get(entity):
            problems.append(QcProblem("ERROR", "missing_label", entity, ""))
        langs = [lang for _, lang in labels.get(entity, [])]
        if len(langs) != len(set(langs)):
            problems.append(QcProblem("ERROR", "multiple_labels", entity, " | ".join(sorted(v for v, _ in labels[entity]))))
        for text, _ in labels.get(entity, []):
            by_label[text.strip().lower()].add(entity)
            if text != text.strip() or "  " in text or "\n" in text:
                problems.append(QcProblem("ERROR", "label_whitespace", entity, repr(text)))
        for xref in props[entity].get(_XREF, []):
            if not _CURIE.match(xref):
                problems.append(QcProblem("ERROR", "invalid_xref", entity, xref))
        if own and not props[entity].get(_DEFINITION):
            problems.append(QcProblem("WARN", "missing_definition", entity, ""))
        is_class = "http://www.w3.org/2002/07/owl#Class" in kinds[entity]
        if own and is_class and not props[entity].get("http://www.w3.org/2000/01/rdf-schema#subClassOf"):
            problems.append(QcProblem("WARN", "missing_superclass", entity, ""))
    for text, entities in sorted(by_label.items()):
        if len(entities) > 1:
            for entity in sorted(entities):
                problems.append(QcProblem("ERROR", "duplicate_label", entity, text))
    for row in store.query(_PREFIXES + _DEPRECATED_IN_USE, bindings={"d": NamedNode(GRAPH_DOMAIN)}):  # type: ignore[union-attr]
        problems.append(QcProblem("ERROR", "deprecated_reference", row["term"].value, "used in the domain graph"))
    return sorted(problems, key=lambda p: (LEVELS.index(p.level), p.rule, p.subject, p.value))
