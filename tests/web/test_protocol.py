"""The SPARQL 1.1 Protocol over a live waitress server, driven by SPARQLWrapper and raw HTTP."""

from __future__ import annotations

import csv
import io
import json

import pytest
import rdflib
import requests
from pyoxigraph import RdfFormat, parse
from SPARQLWrapper import CSV, JSON, JSONLD, N3, RDFXML, TSV, TURTLE, XML, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

from kb.web.server import BackgroundServer

DATA = """
<http://ex.org/a> <http://ex.org/p> "one" <http://ex.org/g1> .
<http://ex.org/b> <http://ex.org/p> "two"@en <http://ex.org/g1> .
<http://ex.org/c> <http://ex.org/p> "3"^^<http://www.w3.org/2001/XMLSchema#integer> <http://ex.org/g2> .
<http://ex.org/d> <http://ex.org/p> "default" .
"""
SELECT = "SELECT ?s ?o WHERE { GRAPH ?g { ?s <http://ex.org/p> ?o } } ORDER BY ?s"


@pytest.fixture
def loaded(live: BackgroundServer) -> BackgroundServer:
    live.store.raw.load(DATA.encode(), RdfFormat.N_QUADS)
    return live


def wrapper(url: str, query: str, fmt: str, method: str = "GET") -> SPARQLWrapper:
    client = SPARQLWrapper(url)
    client.setQuery(query)
    client.setReturnFormat(fmt)
    client.setMethod(method)
    return client


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_sparqlwrapper_select_json_and_xml(loaded: BackgroundServer, method: str) -> None:
    rows = wrapper(loaded.sparql, SELECT, JSON, method).queryAndConvert()["results"]["bindings"]
    assert [(r["s"]["value"], r["o"]["value"]) for r in rows] == [
        ("http://ex.org/a", "one"), ("http://ex.org/b", "two"), ("http://ex.org/c", "3")]
    assert rows[1]["o"]["xml:lang"] == "en"
    xml = wrapper(loaded.sparql, SELECT, XML, method).queryAndConvert()
    assert len(xml.getElementsByTagName("result")) == 3


def test_sparqlwrapper_csv_tsv_and_ask(loaded: BackgroundServer) -> None:
    text = wrapper(loaded.sparql, SELECT, CSV).queryAndConvert().decode()
    assert list(csv.reader(io.StringIO(text)))[1] == ["http://ex.org/a", "one"]
    tsv = wrapper(loaded.sparql, SELECT, TSV).queryAndConvert().decode().splitlines()
    assert tsv[0] == "?s\t?o" and tsv[2] == '<http://ex.org/b>\t"two"@en'
    assert wrapper(loaded.sparql, "ASK { <http://ex.org/d> ?p ?o }", JSON).queryAndConvert()["boolean"] is True
    assert wrapper(loaded.sparql, "ASK { <http://ex.org/zz> ?p ?o }", JSON).queryAndConvert()["boolean"] is False


@pytest.mark.parametrize("fmt", [TURTLE, RDFXML, JSONLD, N3])
def test_sparqlwrapper_construct_formats(loaded: BackgroundServer, fmt: str) -> None:
    query = "CONSTRUCT { ?s <http://ex.org/q> ?o } WHERE { GRAPH <http://ex.org/g1> { ?s ?p ?o } }"
    result = wrapper(loaded.sparql, query, fmt).queryAndConvert()
    graph = result if isinstance(result, rdflib.Graph) else rdflib.Graph().parse(
        data=result, format={TURTLE: "turtle", N3: "turtle", JSONLD: "json-ld"}[fmt])
    assert set(graph.objects(rdflib.URIRef("http://ex.org/a"), rdflib.URIRef("http://ex.org/q"))) == {rdflib.Literal("one")}
    assert len(graph) == 2


@pytest.mark.parametrize("accept", [
    "text/turtle", "application/n-triples", "application/n-quads", "application/ld+json", "application/rdf+xml",
])
def test_describe_negotiates_every_graph_format(loaded: BackgroundServer, accept: str) -> None:
    response = requests.get(loaded.sparql, params={"query": "DESCRIBE <http://ex.org/d>"}, headers={"Accept": accept})
    assert response.status_code == 200
    assert response.headers["Content-Type"].split(";")[0] == accept
    quads = list(parse(response.content, RdfFormat.from_media_type(accept)))
    assert [(str(q.subject), str(q.object)) for q in quads] == [("<http://ex.org/d>", '"default"')]


def test_three_request_forms_agree(loaded: BackgroundServer) -> None:
    accept = {"Accept": "application/sparql-results+json"}
    get = requests.get(loaded.sparql, params={"query": SELECT}, headers=accept)
    form = requests.post(loaded.sparql, data={"query": SELECT}, headers=accept)
    direct = requests.post(loaded.sparql, data=SELECT.encode(),
                           headers={**accept, "Content-Type": "application/sparql-query"})
    assert get.status_code == form.status_code == direct.status_code == 200
    assert get.json() == form.json() == direct.json()
    assert len(get.json()["results"]["bindings"]) == 3


def test_dataset_parameters_override_the_store_dataset(loaded: BackgroundServer) -> None:
    query = "SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s"
    plain = requests.get(loaded.sparql, params={"query": query}).json()["results"]["bindings"]
    assert [r["s"]["value"] for r in plain] == ["http://ex.org/d"]
    scoped = requests.get(loaded.sparql, params={"query": query, "default-graph-uri": "http://ex.org/g2"}).json()
    assert [r["s"]["value"] for r in scoped["results"]["bindings"]] == ["http://ex.org/c"]
    named = requests.post(loaded.sparql, params={"named-graph-uri": "http://ex.org/g2"},
                          data={"query": "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"}).json()
    assert [r["g"]["value"] for r in named["results"]["bindings"]] == ["http://ex.org/g2"]


def test_malformed_query_is_400_with_the_parser_message(loaded: BackgroundServer) -> None:
    response = requests.get(loaded.sparql, params={"query": "SELECT * WHERE { ?s ?p "})
    assert response.status_code == 400
    body = response.json()
    assert body["ok"] is False and body["status"] == 400 and "SPARQL syntax error" in body["error"]
    assert "Traceback" not in response.text
    with pytest.raises(QueryBadFormed):
        wrapper(loaded.sparql, "SELECT * WHERE {", JSON).query()


def test_406_415_and_405(loaded: BackgroundServer) -> None:
    assert requests.get(loaded.sparql, params={"query": SELECT}, headers={"Accept": "image/png"}).status_code == 406
    assert requests.get(loaded.sparql, params={"query": "ASK {}"}, headers={"Accept": "text/csv"}).status_code == 406
    bad_type = requests.post(loaded.sparql, data=b"ASK {}", headers={"Content-Type": "text/plain"})
    assert bad_type.status_code == 415 and bad_type.json()["code"] == "KB707"
    assert requests.put(loaded.sparql, params={"query": "ASK {}"}).status_code == 405
    assert requests.get(loaded.sparql, params=[("query", "ASK {}"), ("query", "ASK {}")]).status_code == 400


def test_service_description_head_options_and_cors(loaded: BackgroundServer) -> None:
    response = requests.get(loaded.sparql, headers={"Accept": "text/turtle", "Origin": "http://yasgui.example"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "http://yasgui.example"
    graph = rdflib.Graph().parse(data=response.text, format="turtle")
    sd = rdflib.Namespace("http://www.w3.org/ns/sparql-service-description#")
    assert (None, sd.endpoint, rdflib.URIRef(loaded.sparql)) in graph
    assert (None, sd.supportedLanguage, sd.SPARQL11Update) in graph
    head = requests.head(loaded.sparql, params={"query": "ASK {}"})
    assert head.status_code == 200 and head.content == b"" and "json" in head.headers["Content-Type"]
    preflight = requests.options(loaded.sparql, headers={
        "Origin": "http://yasgui.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type"})
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "GET" in preflight.headers["Allow"]


def test_update_forms_and_using_graph_parameter(live: BackgroundServer, auth: dict[str, str]) -> None:
    direct = requests.post(live.sparql, data='INSERT DATA { GRAPH <http://ex.org/u> { <http://ex.org/x> <http://ex.org/p> "1" } }',
                           headers={**auth, "Content-Type": "application/sparql-update"})
    assert direct.status_code == 204
    form = requests.post(live.sparql, headers=auth, params={"using-graph-uri": "http://ex.org/u"}, data={
        "update": 'INSERT { GRAPH <http://ex.org/v> { ?s ?p "copied" } } WHERE { ?s ?p ?o }'})
    assert form.status_code == 204
    copied = requests.get(live.sparql, params={"query": 'ASK { GRAPH <http://ex.org/v> { <http://ex.org/x> ?p "copied" } }'})
    assert copied.json()["boolean"] is True
    conflict = requests.post(live.sparql, headers=auth, params={"using-graph-uri": "http://ex.org/u"}, data={
        "update": "WITH <http://ex.org/u> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }"})
    assert conflict.status_code == 400
    syntax = requests.post(live.sparql, headers=auth, data={"update": "CLEAR XYZ"})
    assert syntax.status_code == 400 and syntax.json()["code"] == "KB500"
    assert requests.get(live.sparql, params={"update": "CLEAR ALL"}).status_code == 405


def test_sparqlwrapper_update_with_token(live: BackgroundServer) -> None:
    client = SPARQLWrapper(live.sparql, updateEndpoint=live.sparql)
    client.addCustomHttpHeader("Authorization", "Bearer test-token-5")
    client.setMethod("POST")
    client.setQuery('INSERT DATA { <http://ex.org/w> <http://ex.org/p> "via wrapper" }')
    assert client.query().response.status == 204
    assert json.loads(requests.get(live.sparql, params={"query": "ASK { <http://ex.org/w> ?p ?o }"}).text)["boolean"]
