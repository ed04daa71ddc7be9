"""Auth refusals, time / result / body limits, SERVICE and LOAD refusal, and the one error shape."""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests
from flask import Flask

from kb.errors import ERROR_CLASSES, KBError, UnknownNameError
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.web.app import create_app
from kb.web.errors import WebError
from kb.web.server import BackgroundServer

INSERT = 'INSERT DATA { <http://ex.org/s> <http://ex.org/p> "o" }'
UPDATE_HEADERS = {"Content-Type": "application/sparql-update"}


def test_read_only_by_default_refuses_every_write(serve: Any) -> None:
    server = serve()
    update = requests.post(server.sparql, data=INSERT, headers={**UPDATE_HEADERS, "Authorization": "Bearer x"})
    assert update.status_code == 403 and update.json()["code"] == "KB701"
    put = requests.put(server.gsp, params={"graph": "http://ex.org/g"}, data="<http://a> <http://b> <http://c> .",
                       headers={"Content-Type": "application/n-triples"})
    assert put.status_code == 403
    assert len(server.store.raw) == 0
    assert requests.get(server.sparql, params={"query": "ASK {}"}).status_code == 200


@pytest.mark.parametrize("header", [None, "Bearer wrong", "Basic dGVzdC10b2tlbi01", "Bearer"])
def test_writes_need_the_matching_bearer_token(live: BackgroundServer, header: str | None) -> None:
    headers = {**UPDATE_HEADERS, **({"Authorization": header} if header else {})}
    response = requests.post(live.sparql, data=INSERT, headers=headers)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    for method in ("PUT", "POST", "DELETE"):
        gsp = requests.request(method, live.gsp, params={"graph": "http://ex.org/g"},
                               data="<http://a> <http://b> <http://c> .",
                               headers={"Content-Type": "application/n-triples", **({"Authorization": header} if header else {})})
        assert gsp.status_code == 401, method
    assert len(live.store.raw) == 0


def test_time_limit_answers_503_and_stops_the_query(serve: Any) -> None:
    server = serve(**{"server.query_timeout_s": 0.5})
    server.store.raw.update("INSERT { ?s <http://ex.org/p> ?i } WHERE { VALUES ?i { 1 2 3 4 5 6 7 8 9 10 } "
                            "BIND(IRI(CONCAT('http://ex.org/', STR(?i))) AS ?s) }")
    grow = "INSERT { ?x <http://ex.org/q> ?y } WHERE { ?x <http://ex.org/p> ?a . ?y <http://ex.org/p> ?b }"
    server.store.raw.update(grow)  # 100 more triples
    runaway = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"  # 110^4 rows
    started = time.monotonic()
    response = requests.get(server.sparql, params={"query": runaway}, headers={"Accept": "text/tab-separated-values"})
    assert response.status_code == 503
    assert response.json()["code"] == "KB702" and "time limit" in response.json()["error"]
    assert time.monotonic() - started < 5
    time.sleep(0.5)  # the streaming query stops at its next output chunk and frees the pool thread
    assert requests.get(server.sparql, params={"query": "ASK {}"}).status_code == 200


def test_result_size_limit_is_a_clear_error(serve: Any) -> None:
    server = serve(**{"server.max_result_bytes": 2000})
    server.store.raw.update("INSERT { ?s <http://ex.org/p> ?i } WHERE { VALUES ?i { 1 2 3 4 5 6 7 8 9 10 } "
                            "BIND(IRI(CONCAT('http://ex.org/', STR(?i))) AS ?s) }")
    small = requests.get(server.sparql, params={"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 2"})
    assert small.status_code == 200
    big = requests.get(server.sparql, params={"query": "SELECT * WHERE { ?s ?p ?o . ?a ?b ?c }"})
    assert big.status_code == 503
    assert big.json()["code"] == "KB704" and "size limit of 2000 bytes" in big.json()["error"]


def test_request_body_limit(serve: Any) -> None:
    server = serve(**{"server.max_body_bytes": 1000, "server.token": "t"})
    response = requests.post(server.sparql, data=b"ASK {} #" + b"x" * 2000,
                             headers={"Content-Type": "application/sparql-query"})
    assert response.status_code == 413
    assert response.json()["ok"] is False and response.json()["status"] == 413


def test_service_and_load_are_refused(live: BackgroundServer, auth: dict[str, str]) -> None:
    service = requests.get(live.sparql, params={
        "query": "SELECT * WHERE { SERVICE <http://169.254.169.254/latest> { ?s ?p ?o } }"})
    assert service.status_code == 403 and "SERVICE" in service.json()["error"]
    load = requests.post(live.sparql, data="LOAD <http://example.org/evil.ttl>", headers={**UPDATE_HEADERS, **auth})
    assert load.status_code == 403 and "LOAD" in load.json()["error"]
    literal = requests.get(live.sparql, params={"query": 'ASK { FILTER("SERVICE LOAD" != "") }'})
    assert literal.status_code == 200  # keywords inside strings are not requests


def _app_raising(error: Exception) -> Flask:
    app = create_app(__import__("kb.config", fromlist=["load_config"]).load_config(env={}), OxigraphLocalStore(None))

    @app.route("/boom")
    def boom() -> None:
        raise error

    return app


@pytest.mark.parametrize("error_class", [*ERROR_CLASSES, WebError])
def test_every_error_class_has_the_one_json_shape(error_class: type[KBError]) -> None:
    error = UnknownNameError("thing", "x", ["a"]) if error_class is UnknownNameError else (
        error_class("/tmp/f.pdf", "corrupt") if error_class.__name__ == "InputFileError" else error_class("went wrong"))
    response = _app_raising(error).test_client().get("/boom")
    body = response.get_json()
    assert set(body) == {"ok", "error", "errors", "code", "status"}
    assert body["ok"] is False and body["code"] == error.code and response.status_code == body["status"] == error.http_status
    assert body["errors"][0] == body["error"]


def test_unexpected_exception_is_500_without_stack_trace() -> None:
    response = _app_raising(ZeroDivisionError("secret detail")).test_client().get("/boom")
    assert response.status_code == 500
    assert response.get_json()["code"] == "KB000"
    assert "secret detail" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
