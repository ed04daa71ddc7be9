"""Store-wide counts and quad listing, through SPARQL so every adapter supports them."""

from __future__ import annotations

from pyoxigraph import NamedNode, Quad

from kb import vocab as V
from kb.store import GraphStore

COUNTS = f"""{V.sparql_prefixes()}
SELECT
  (COUNT(DISTINCT ?doc) AS ?documents)
  (COUNT(DISTINCT ?section) AS ?sections)
  (COUNT(DISTINCT ?chunk) AS ?chunks)
  (COUNT(DISTINCT ?table) AS ?tables)
WHERE {{
  GRAPH ?g {{
    {{ ?doc a doco:Document }} UNION {{ ?section a doco:Section }} UNION {{ ?chunk a cmc:Chunk }}
    UNION {{ ?table a doco:Table . FILTER NOT EXISTS {{ ?table cmc:rowWindow ?w . FILTER(?w > 0) }} }}
  }}
  FILTER(STRSTARTS(STR(?g), "{V.GRAPH_LEXICAL_PREFIX}"))
}}"""


def store_stats(store: GraphStore) -> dict[str, int]:
    """Documents, sections, chunks, tables, and quads per named graph kind."""
    out: dict[str, int] = {}
    for row in store.query(COUNTS):
        for key in ("documents", "sections", "chunks", "tables"):
            out[key] = int(row[key].value)
    for row in store.query("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"):
        graph = row["g"].value
        kind = "quads:" + (graph.split("/")[0] if graph.startswith(V.GRAPH_LEXICAL_PREFIX) else graph)
        out[kind] = out.get(kind, 0) + int(row["n"].value)
    return dict(sorted(out.items()))


def all_quads(store: GraphStore, graph: str | None = None) -> list[Quad]:
    """Every quad in the named graphs (or in one), via SPARQL."""
    if graph is not None:
        rows = store.query("SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }", bindings={"g": NamedNode(graph)})
        return [Quad(r["s"], r["p"], r["o"], NamedNode(graph)) for r in rows]
    rows = store.query("SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
    return [Quad(r["s"], r["p"], r["o"], r["g"]) for r in rows]
