"""Token-level SPARQL editing: VALUES injection, protocol USING clauses, keyword detection."""

from __future__ import annotations

import pytest
from pyoxigraph import Literal, NamedNode, Store

from kb.errors import QueryError
from kb.store.sparql_text import add_using, inject_values, keywords

TRICKY = Literal('} { ?s "x" # <http://evil>')


def run(query: str) -> list[str]:
    store = Store()
    store.update('INSERT DATA { <http://ex.org/a> <http://ex.org/p> "} { ?s \\"x\\" # <http://evil>" . '
                 '<http://ex.org/b> <http://ex.org/p> "other" }')
    return sorted(str(row["s"]) for row in store.query(query))


@pytest.mark.parametrize("query", [
    "SELECT ?s ?o WHERE { ?s ?p ?o }",
    "PREFIX ex: <http://ex.org/> SELECT * { ?s ex:p ?o }",
    "# a comment with { braces }\nSELECT ?s ?o WHERE { ?s ?p ?o . FILTER(?o != '{') }",
    "SELECT ?s ?o WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 5",
])
def test_values_bind_the_top_level_group(query: str) -> None:
    assert run(inject_values(query, {"o": TRICKY})) == ["<http://ex.org/a>"]


def test_construct_binds_the_where_group_not_the_template() -> None:
    query = inject_values("CONSTRUCT { ?s <http://ex.org/q> ?o } WHERE { ?s ?p ?o }", {"s": NamedNode("http://ex.org/b")})
    assert query.index("VALUES") > query.index("WHERE")
    with pytest.raises(QueryError, match="long form"):
        inject_values("CONSTRUCT WHERE { ?s ?p ?o }", {"s": NamedNode("http://ex.org/b")})


def test_binding_names_must_be_variable_names() -> None:
    with pytest.raises(QueryError, match="not a SPARQL variable name"):
        inject_values("SELECT * { ?s ?p ?o }", {"o) } DROP ALL #": Literal("x")})


def test_using_goes_before_each_modify_where_only() -> None:
    update = ("INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> 'WHERE' } } ;\n"
              "DELETE WHERE { ?a ?b ?c } ;\n"
              "INSERT { ?s <urn:q> 1 } WHERE { ?s ?p ?o }")
    rewritten = add_using(update, ["urn:d"], ["urn:n"])
    assert rewritten.count("USING <urn:d> USING NAMED <urn:n> WHERE") == 1
    assert "'WHERE'" in rewritten and "DELETE WHERE { ?a" in rewritten
    with pytest.raises(QueryError, match="USING/WITH"):
        add_using("WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", ["urn:d"], [])


def test_keywords_ignore_strings_iris_and_comments() -> None:
    text = 'SELECT * WHERE { ?s <http://x/SERVICE> "LOAD" } # SERVICE'
    assert "SERVICE" not in keywords(text) and "LOAD" not in keywords(text)
    assert "SERVICE" in keywords("SELECT * { SERVICE <http://x> { ?s ?p ?o } }")
