"""The reasoner's input: every ontology graph plus the OWL-relevant part of the domain graph.

The lexical layer and the mentions are never reasoned over. From the domain graph we drop the
classic reification nodes (``rdf:Statement`` with provenance) and triples whose predicate the
ontology does not declare, because an undeclared predicate is ambiguous in OWL 2 DL (object,
data or annotation property?) and HermiT would reject or guess. What was dropped is counted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pyoxigraph import NamedNode, Triple

from kb.ontology import ontology_graphs
from kb.store.protocol import GraphStore
from kb.vocab import GRAPH_DOMAIN, LABEL, OWL, RDF, TYPE

_DECLARED_PROPERTIES = f"""
SELECT DISTINCT ?p WHERE {{
  GRAPH ?g {{ ?p a ?kind }}
  VALUES ?kind {{ <{OWL}ObjectProperty> <{OWL}DatatypeProperty> <{OWL}AnnotationProperty> }}
  FILTER(STRSTARTS(STR(?g), "urn:kb:graph:ontology"))
}}"""
_STATEMENT = NamedNode(RDF + "Statement")


@dataclass
class ReasonerInput:
    """Ontology triples (TBox) and filtered domain triples (ABox), plus what was left out."""

    tbox: list[Triple]
    abox: list[Triple]
    dropped: Counter[str] = field(default_factory=Counter)

    @property
    def triples(self) -> list[Triple]:
        return self.tbox + self.abox


def graph_triples(store: GraphStore, graph: str) -> list[Triple]:
    """All triples of one named graph, through the protocol (works for remote stores too)."""
    result = store.query("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }", bindings={"g": NamedNode(graph)})
    return list(result)  # type: ignore[arg-type]


def reasoner_input(store: GraphStore) -> ReasonerInput:
    """Read ontology graphs and the domain graph; keep domain triples OWL can interpret."""
    tbox: list[Triple] = []
    for graph in ontology_graphs(store):
        tbox.extend(graph_triples(store, graph))
    declared = {row["p"] for row in store.query(_DECLARED_PROPERTIES)}  # type: ignore[union-attr, index]
    declared.update({TYPE, LABEL})
    domain = graph_triples(store, GRAPH_DOMAIN)
    statements = {t.subject for t in domain if t.predicate == TYPE and t.object == _STATEMENT}
    abox: list[Triple] = []
    dropped: Counter[str] = Counter()
    for t in domain:
        if t.subject in statements:
            dropped["reification"] += 1
        elif t.predicate not in declared:
            dropped[t.predicate.value] += 1
        else:
            abox.append(t)
    return ReasonerInput(tbox=tbox, abox=sorted(abox, key=str), dropped=dropped)
