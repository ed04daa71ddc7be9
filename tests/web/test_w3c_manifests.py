"""The W3C SPARQL 1.1 Protocol, Graph Store Protocol and Service Description suites, replayed live.

Each test's requests and expected status / format / boolean / body are read from the manifest RDF
in ../shared/data/w3c-sparql11-protocol and replayed byte for byte with http.client against the
running server, with the write token. Tests that do not apply are listed in docs/api.md.
"""

from __future__ import annotations

import http.client
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import rdflib
from pyoxigraph import (
    NamedNode,
    QueryBoolean,
    QueryResultsFormat,
    RdfFormat,
    parse_query_results,
)
from rdflib.collection import Collection
from rdflib.compare import isomorphic

from kb.web.server import BackgroundServer

SUITE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "w3c-sparql11-protocol"
MF = rdflib.Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = rdflib.Namespace("http://www.w3.org/2011/http#")
CNT = rdflib.Namespace("http://www.w3.org/2011/content#")
UT = rdflib.Namespace("http://www.w3.org/2009/sparql/tests/test-update#")
HTS = "http://www.w3.org/2011/http-statusCodes#"
SD = rdflib.Namespace("http://www.w3.org/ns/sparql-service-description#")
STATUS = {"OK": {200}, "Created": {201}, "NoContent": {204}, "NotFound": {404},
          **{f"StatusCode{n}xx": set(range(n * 100, n * 100 + 100)) for n in range(1, 6)}}
TABULAR = {"application/sparql-results+json", "application/sparql-results+xml", "text/csv", "text/tab-separated-values"}
RDF_TYPES = {"text/turtle", "application/n-triples", "application/rdf+xml", "application/ld+json", "application/n-quads"}
MANIFESTS = ["protocol/manifest.ttl", "graph-store-protocol/manifest-direct.ttl", "graph-store-protocol/manifest-indirect.ttl"]


@dataclass
class Exchange:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None
    statuses: set[int]
    expected_format: str | None = None
    expected_boolean: bool | None = None
    location_var: str | None = None
    response_type: str | None = None
    response_body: str | None = None


@dataclass
class Case:
    name: str
    exchanges: list[Exchange]
    graph_data: list[tuple[Path, str]] = field(default_factory=list)


def _text(graph: rdflib.Graph, node: rdflib.term.Node, prop: rdflib.URIRef) -> str | None:
    value = graph.value(node, prop)
    return None if value is None else str(value)


def _headers(graph: rdflib.Graph, node: rdflib.term.Node) -> dict[str, str]:
    head = graph.value(node, HT.headers)
    if head is None:
        return {}
    return {str(graph.value(h, HT.fieldName)).lower(): str(graph.value(h, HT.fieldValue)) for h in Collection(graph, head)}


def read_manifest(path: Path) -> list[Case]:
    graph = rdflib.Graph().parse(path, format="turtle")
    manifest = next(graph.subjects(MF.entries, None))
    cases = []
    listed = list(Collection(graph, graph.value(manifest, MF.entries)))
    unlisted = sorted(set(graph.subjects(MF.action, None)) - set(listed))  # e.g. head_non_existing_direct
    for test in listed + unlisted:
        exchanges = []
        connection = graph.value(test, MF.action)
        for request in Collection(graph, graph.value(connection, HT.requests)):
            body_node = graph.value(request, HT.body)
            body = None
            if body_node is not None:
                encoding = _text(graph, body_node, CNT.characterEncoding) or "UTF-8"
                body = str(graph.value(body_node, CNT.chars)).encode(encoding.lower().replace("utf-16", "utf-16-le"))
            response = graph.value(request, HT.resp)
            statuses = set().union(*(STATUS[str(s).removeprefix(HTS)] for s in graph.objects(response, MF.expectedStatus)))
            boolean = graph.value(response, MF.expectedBoolean)
            response_body = graph.value(response, HT.body)
            exchanges.append(Exchange(
                method=str(graph.value(request, HT.methodName)),
                path=str(graph.value(request, HT.absolutePath)),
                headers=_headers(graph, request),
                body=body,
                statuses=statuses,
                expected_format=_text(graph, response, MF.expectedFormat),
                expected_boolean=None if boolean is None else bool(boolean.toPython()),
                location_var=_text(graph, response, MF.expectedLocation),
                response_type=_headers(graph, response).get("content-type"),
                response_body=None if response_body is None else str(graph.value(response_body, CNT.chars)),
            ))
        data = [(path.parent / str(graph.value(d, UT.graph)).rsplit("/", 1)[-1], str(graph.value(d, rdflib.RDFS.label)))
                for d in graph.objects(test, UT.graphData)]
        cases.append(Case(str(test).rsplit("#", 1)[-1], exchanges, sorted(data)))
    return cases


def suite_cases() -> list[Any]:
    if not SUITE.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"W3C protocol suite not found at {SUITE} (../shared absent)"))]
    return [pytest.param(case, id=f"{manifest.split('/')[0]}:{case.name}")
            for manifest in MANIFESTS for case in read_manifest(SUITE / manifest)]


def test_suite_is_complete() -> None:
    if not SUITE.is_dir():
        pytest.skip(f"W3C protocol suite not found at {SUITE} (../shared absent)")
    assert len(read_manifest(SUITE / "protocol/manifest.ttl")) == 34
    assert sum(len(read_manifest(SUITE / m)) for m in MANIFESTS[1:]) == 14


def local_path(path: str) -> str:
    return "/sparql" + path[len("/sparql/"):] if path.startswith("/sparql/") else path


def check_payload(exchange: Exchange, media: str, content: bytes, base: str) -> None:
    if exchange.expected_format == "boolean":
        result = parse_query_results(content, QueryResultsFormat.from_media_type(media))
        assert isinstance(result, QueryBoolean)
        if exchange.expected_boolean is not None:
            assert bool(result) is exchange.expected_boolean
    elif exchange.expected_format == "tabular":
        assert media in TABULAR
    elif exchange.expected_format == "RDF":
        assert media in RDF_TYPES
    if exchange.response_type:
        assert media == exchange.response_type.split(";")[0].strip()
    if exchange.response_body is not None and exchange.method != "HEAD":
        expected = rdflib.Graph().parse(data=exchange.response_body, format="turtle", publicID=base)
        actual = rdflib.Graph().parse(data=content, format="turtle", publicID=base)
        assert isomorphic(expected, actual), content.decode()


@pytest.mark.parametrize("case", suite_cases())
def test_w3c_case(case: Case, live: BackgroundServer) -> None:
    live.store.raw.clear()
    for file, graph in case.graph_data:
        live.store.raw.load(path=str(file), format=RdfFormat.N_TRIPLES, to_graph=NamedNode(graph))
    split = urlsplit(live.url)
    variables: dict[str, str] = {}
    for exchange in case.exchanges:
        path, body = local_path(exchange.path), exchange.body
        for var, value in variables.items():
            path = path.replace(var, value)
            body = body.replace(var.encode(), value.encode()) if body is not None else None
        connection = http.client.HTTPConnection(split.hostname, split.port, timeout=30)
        connection.request(exchange.method, path, body=body,
                           headers={**exchange.headers, "Authorization": "Bearer test-token-5"})
        response = connection.getresponse()
        content = response.read()
        connection.close()
        assert response.status in exchange.statuses, f"{exchange.method} {path}: {response.status} {content[:300]!r}"
        if exchange.location_var:
            variables[exchange.location_var] = response.getheader("Location", "")
        if 200 <= response.status < 300:
            media = (response.getheader("Content-Type") or "").split(";")[0].strip()
            check_payload(exchange, media, content, live.url + path)


@pytest.mark.skipif(not SUITE.is_dir(), reason=f"W3C protocol suite not found at {SUITE} (../shared absent)")
def test_w3c_service_description(live: BackgroundServer) -> None:
    """service-description/manifest.ttl: returns RDF, has a matching sd:endpoint, follows the schema."""
    names = {str(t).rsplit("#", 1)[-1] for t in rdflib.Graph().parse(SUITE / "service-description/manifest.ttl")
             .subjects(rdflib.RDF.type, MF.ServiceDescriptionTest)}
    assert names == {"returns-rdf", "has-endpoint-triple", "conforms-to-schema"}
    split = urlsplit(live.url)
    connection = http.client.HTTPConnection(split.hostname, split.port, timeout=30)
    connection.request("GET", "/sparql", headers={"Accept": "text/turtle"})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type", "").startswith("text/turtle")  # returns-rdf
    graph = rdflib.Graph().parse(data=response.read(), format="turtle")
    service = graph.value(None, SD.endpoint, rdflib.URIRef(live.sparql))  # has-endpoint-triple
    assert service is not None
    assert (service, rdflib.RDF.type, SD.Service) in graph  # conforms-to-schema
    languages = set(graph.objects(service, SD.supportedLanguage))
    assert languages and languages <= {SD.SPARQL10Query, SD.SPARQL11Query, SD.SPARQL11Update}
    dataset = graph.value(service, SD.defaultDataset)
    assert (dataset, rdflib.RDF.type, SD.Dataset) in graph and graph.value(dataset, SD.defaultGraph) is not None
    assert all(isinstance(f, rdflib.URIRef) for f in graph.objects(service, SD.resultFormat))
