"""One contract for every GraphStore adapter: same answers, same sorted N-Quads, safe bindings."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Quad, QueryBoolean, QueryTriples

from kb.config import Config
from kb.errors import ConfigError, QueryError
from kb.ingest import ingest
from kb.stats import all_quads
from kb.store import GraphStore, open_store
from kb.store.protocol import ADAPTERS
from kb.store.serialize import sorted_nquads

EX = "http://ex.org/"
G1, G2 = f"{EX}g1", f"{EX}g2"


def q(s: str, o: str | Literal) -> Quad:
    obj = o if isinstance(o, Literal) else NamedNode(EX + o)
    return Quad(NamedNode(EX + s), NamedNode(EX + "p"), obj)


def count(store: GraphStore, graph: str) -> int:
    rows = store.query("SELECT (COUNT(*) AS ?n) ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g", bindings={"g": NamedNode(graph)})
    return sum(int(r["n"].value) for r in rows)


CASES = ["oxigraph", "sparql@oxigraph-serve", "sparql@kb-serve"]


@pytest.fixture(params=CASES)
def any_store(request: pytest.FixtureRequest, store_factory: Callable[[str], GraphStore]) -> GraphStore:
    store = store_factory(request.param)
    request.addfinalizer(store.close)
    return store


def test_every_registered_adapter_is_covered() -> None:
    assert {c.split("@")[0] for c in CASES} == set(ADAPTERS)


def test_add_graphs_and_drop(any_store: GraphStore) -> None:
    assert any_store.add([q("a", "b"), q("a", "c")], graph=G1) == 2
    any_store.add([q("x", "y")], graph=G2)
    assert any_store.graphs() == [G1, G2]
    assert count(any_store, G1) == 2
    any_store.drop_graph(G1)
    any_store.drop_graph(G1)  # silently when absent
    assert any_store.graphs() == [G2]


def test_replace_graph_touches_only_that_graph(any_store: GraphStore) -> None:
    any_store.add([q("a", "b"), q("a", "c")], graph=G1)
    any_store.add([q("x", "y")], graph=G2)
    assert any_store.replace_graph(G1, [q("n", "m")]) == 1
    assert sorted_nquads(all_quads(any_store)) == (
        f"<{EX}n> <{EX}p> <{EX}m> <{G1}> .\n<{EX}x> <{EX}p> <{EX}y> <{G2}> .\n".encode())


HOSTILE = [
    'x" } ; DROP ALL ; #',
    "x' } } DELETE WHERE { ?s ?p ?o } #",
    'tri"""ple\'\'\'quote',
    "new\nline\tand \\ backslash",
    "ünïcödé ✓ <http://ex.org/evil> }",
    "VALUES ?s { <http://ex.org/a> }",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_binding_values_are_data_not_syntax(any_store: GraphStore, value: str) -> None:
    any_store.add([q("a", Literal(value)), q("b", "c")], graph=G1)
    rows = list(any_store.query("SELECT ?s ?o WHERE { GRAPH ?g { ?s ?p ?o } }", bindings={"o": Literal(value)}))
    assert [(r["s"].value, r["o"].value) for r in rows] == [(EX + "a", value)]
    none = list(any_store.query("SELECT ?s ?v WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?o = ?v) }",
                                bindings={"v": Literal(value + "!")}))
    assert none == []
    assert count(any_store, G1) == 2


def test_bindings_reach_filters_and_projection(any_store: GraphStore) -> None:
    any_store.add([q("a", Literal("5", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer"))),
                   q("b", Literal("9", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")))], graph=G1)
    rows = any_store.query("SELECT ?s ?min ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?o >= ?min) }",
                           bindings={"min": Literal("7", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")),
                                     "g": NamedNode(G1)})
    assert [(r["s"].value, r["min"].value) for r in rows] == [(EX + "b", "7")]


def test_query_result_kinds_and_errors(any_store: GraphStore) -> None:
    any_store.add([q("a", "b")], graph=G1)
    assert isinstance(any_store.query("ASK { GRAPH ?g { ?s ?p ?o } }"), QueryBoolean)
    triples = any_store.query("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }")
    assert isinstance(triples, QueryTriples)
    assert [str(t.object) for t in triples] == [f"<{EX}b>"]
    with pytest.raises(QueryError):
        any_store.query("SELECT * WHERE { ?s ")
    with pytest.raises(QueryError):
        any_store.update("INSERT DATA { ?s }")


def test_update_load_and_export(any_store: GraphStore, tmp_path: Path) -> None:
    any_store.update(f'INSERT DATA {{ GRAPH <{G2}> {{ <{EX}u> <{EX}p> "updated" }} }}')
    turtle = tmp_path / "data.ttl"
    turtle.write_text(f'<{EX}t> <{EX}p> "from turtle"@en .\n')
    any_store.load(turtle, graph=G1)
    quads = tmp_path / "data.nq"
    quads.write_text(f'<{EX}n> <{EX}p> "from nquads" <{EX}g3> .\n')
    any_store.load(quads)
    out = io.BytesIO()
    any_store.export(out, format="nquads")
    assert sorted(out.getvalue().decode().splitlines()) == [
        f'<{EX}n> <{EX}p> "from nquads" <{EX}g3> .',
        f'<{EX}t> <{EX}p> "from turtle"@en <{G1}> .',
        f'<{EX}u> <{EX}p> "updated" <{G2}> .',
    ]
    one = io.BytesIO()
    any_store.export(one, format="ntriples", graph=G1)
    assert one.getvalue().decode().strip() == f'<{EX}t> <{EX}p> "from turtle"@en .'


@pytest.fixture(scope="module")
def reference_nquads(sample_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    from kb.config import load_config
    from kb.store.oxigraph_local import OxigraphLocalStore

    config = load_config(env={}, toml_path=tmp_path_factory.mktemp("cfg") / "absent.toml")
    store = OxigraphLocalStore(None)
    summary = ingest(store, [sample_folder], config)
    assert summary.documents == 2 and not summary.failures
    return sorted_nquads(all_quads(store))


@pytest.mark.parametrize("case", ["sparql@oxigraph-serve", "sparql@kb-serve"])
def test_remote_ingest_gives_the_same_sorted_nquads(
    case: str, store_factory: Callable[[str], GraphStore], sample_folder: Path, config: Config, reference_nquads: bytes
) -> None:
    store = store_factory(case)
    summary = ingest(store, [sample_folder], config)
    assert summary.documents == 2 and not summary.failures
    assert sorted_nquads(all_quads(store)) == reference_nquads
    again = ingest(store, [sample_folder], config)  # unchanged files are found through remote queries
    assert again.unchanged == 2 and again.documents == 0
    store.close()


def test_open_store_selects_the_remote_adapter(oxigraph_server: str, remote_config: Callable[[str], Config]) -> None:
    store = open_store(remote_config(oxigraph_server))
    assert type(store).__name__ == "SparqlRemoteStore"
    assert isinstance(store.query("ASK {}"), QueryBoolean)
    with pytest.raises(ConfigError, match="store.gsp_url"):
        open_store(remote_config(oxigraph_server).with_values(store__gsp_url=""))
