"""Every JSON API endpoint against the real server: happy path, then its error cases."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import requests

from kb.web.testing import ENTITY, OXIME_TEXT

ERROR_KEYS = {"ok", "error", "errors", "code", "status"}


def error(response: requests.Response, status: int) -> dict[str, Any]:
    """The one error shape, with the expected status and no traceback in it."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == ERROR_KEYS and body["ok"] is False and body["status"] == status
    assert body["error"] and "Traceback" not in response.text
    return body


def test_health_and_version(api) -> None:
    health = requests.get(api("/api/health"), timeout=30).json()
    assert health["ok"] is True and health["documents"] >= 2 and health["index"]["chunks"] > 0
    assert requests.get(api("/api/version"), timeout=30).json()["kb"] == "0.1.0"


def test_openapi_document_is_served(api) -> None:
    spec = requests.get(api("/api/openapi.json"), timeout=30).json()
    assert spec["openapi"].startswith("3.1") and "/api/ask" in spec["paths"]


def test_ask_answers_with_a_cited_quote(api) -> None:
    body = requests.post(api("/api/ask"), json={"question": "At what temperature was the oxime formed?"}, timeout=120).json()
    assert body["found_evidence"] is True and "20 °C" in body["answer"]
    quotes = [c["quote"] for c in body["citations"]]
    assert any("20 °C" in q for q in quotes)
    first = body["citations"][0]
    assert first["page"] >= 1 and first["title"] and first["chunk"].startswith("https://w3id.org/cmc-kb/id/doc/")
    assert [s["step"] for s in body["trace"]][:2] == ["link", "route"]


def test_ask_forced_route_is_recorded(api) -> None:
    body = requests.post(api("/api/ask"), json={"question": "oxime water", "route": "lexical"}, timeout=120).json()
    assert body["route"] == "lexical" and body["trace"][1]["detail"]["method"] == "forced"


@pytest.mark.parametrize("payload,fragment", [
    ({"question": ""}, "question"),
    ({"question": "x" * 1001}, "question"),
    ({"question": "why?", "route": "sideways"}, "route"),
    ({"question": "why?", "extra": 1}, "extra"),
    ({}, "question"),
    ([1, 2], "body"),
])
def test_ask_rejects_invalid_bodies(api, payload: Any, fragment: str) -> None:
    body = error(requests.post(api("/api/ask"), json=payload, timeout=30), 400)
    assert fragment in body["error"] and body["code"] == "KB720"


def test_ask_rejects_wrong_content_type_and_broken_json(api) -> None:
    error(requests.post(api("/api/ask"), data="question=x", headers={"Content-Type": "text/plain"}, timeout=30), 415)
    assert "JSON" in error(requests.post(api("/api/ask"), data="{oops", headers={"Content-Type": "application/json"}, timeout=30), 400)["error"]


def events(response: requests.Response) -> list[tuple[str, Any]]:
    found = []
    for block in response.text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":") and ": " in line)
        if "event" in lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


def test_ask_stream_sends_trace_steps_then_the_answer(api) -> None:
    response = requests.get(api("/api/ask/stream"), params={"q": "At what temperature was the oxime formed?"}, timeout=120)
    assert response.headers["Content-Type"].startswith("text/event-stream")
    stream = events(response)
    kinds = [k for k, _ in stream]
    assert kinds[0] == "started" and kinds[-1] == "answer" and kinds.count("step") >= 3
    assert [d["step"] for k, d in stream if k == "step"][:2] == ["link", "route"]
    assert stream[-1][1]["citations"]
    error(requests.get(api("/api/ask/stream"), timeout=30), 400)


def test_search_ranks_and_filters(api) -> None:
    body = requests.get(api("/api/search"), params={"q": "oxime water temperature", "k": 3}, timeout=60).json()
    passages = body["passages"]
    assert len(passages) == 3 and passages[0]["text"] == OXIME_TEXT and passages[0]["spans"]
    tables = requests.get(api("/api/search"), params={"q": "solvent screen", "kind": "table"}, timeout=60).json()["passages"]
    assert tables and {p["kind"] for p in tables} == {"table"}


@pytest.mark.parametrize("params,fragment", [
    ({}, "q"), ({"q": "x", "k": 0}, "k"), ({"q": "x", "k": "many"}, "k"), ({"q": "x", "colour": "red"}, "colour"),
    ({"q": "x", "version": "four"}, "version"), ({"q": ""}, "q"),
])
def test_search_rejects_bad_parameters(api, params: dict[str, Any], fragment: str) -> None:
    assert error(requests.get(api("/api/search"), params=params, timeout=30), 400)["error"].startswith(fragment)


def test_entities_by_label_and_one_entity_with_mentions(api) -> None:
    found = requests.get(api("/api/entities"), params={"q": "MeTHF"}, timeout=30).json()["entities"]
    assert found == [{"iri": ENTITY + "methf", "label": "2-MeTHF"}]
    water = requests.get(api("/api/entity"), params={"iri": ENTITY + "water"}, timeout=30).json()
    assert water["labels"] == {"pref": ["water"], "alt": ["H2O"]}
    assert [t["iri"] for t in water["types"]] == ["http://purl.obolibrary.org/obo/CHEBI_24431"]
    assert {"predicate": "http://purl.obolibrary.org/obo/OBI_0000293", "direction": "in", "other": ENTITY + "step1"}.items() \
        <= water["relations"][0].items()
    mention = water["mentions"][0]
    assert mention["quote"] == "water" and mention["page"] >= 1 and mention["version"] == "4"
    step = requests.get(api("/api/entity"), params={"iri": ENTITY + "step1"}, timeout=30).json()
    assert {(r["direction"], r["other_label"]) for r in step["relations"]} >= {("out", "water")}


def test_entity_errors(api) -> None:
    assert error(requests.get(api("/api/entity"), params={"iri": ENTITY + "nothing"}, timeout=30), 404)["code"] == "KB710"
    error(requests.get(api("/api/entity"), params={"iri": "not an iri"}, timeout=30), 400)
    error(requests.get(api("/api/entity"), timeout=30), 400)
    error(requests.get(api("/api/entities"), timeout=30), 400)


def test_documents_one_document_and_one_chunk(api) -> None:
    docs = requests.get(api("/api/documents"), timeout=30).json()["documents"]
    assert {"TR-2019-014_v4.docx", "TR-2019-014_v4.pdf"} <= {d["file"] for d in docs}
    doc = requests.get(api(f"/api/documents/{docs[0]['id']}"), timeout=30).json()
    assert doc["sections"] and doc["chunks"] and [c["index"] for c in doc["chunks"]] == sorted(c["index"] for c in doc["chunks"])
    assert any(s["path"] == "2 Results > 2.1 Solvent screen" for s in doc["sections"])
    oxime = next(c for c in doc["chunks"] if c["text"] == OXIME_TEXT)
    chunk = requests.get(api(f"/api/documents/{docs[0]['id']}/chunks/{oxime['index']}"), timeout=30).json()
    assert chunk["text"] == OXIME_TEXT and chunk["iri"] == oxime["iri"] and chunk["section_path"]


def test_document_errors(api) -> None:
    error(requests.get(api("/api/documents/not-an-id"), timeout=30), 400)
    assert error(requests.get(api("/api/documents/0000000000000000"), timeout=30), 404)["code"] == "KB711"
    doc_id = requests.get(api("/api/documents"), timeout=30).json()["documents"][0]["id"]
    assert error(requests.get(api(f"/api/documents/{doc_id}/chunks/99999"), timeout=30), 404)["code"] == "KB712"
    error(requests.get(api(f"/api/documents/{doc_id}/chunks/-1"), timeout=30), 400)


def test_templates_list_get_and_run(api) -> None:
    names = [t["name"] for t in requests.get(api("/api/templates"), timeout=30).json()["templates"]]
    assert "entity_mentions" in names and names == sorted(names)
    one = requests.get(api("/api/templates/entity_mentions"), timeout=30).json()
    assert one["params"] == {"entity": "entity"} and "SELECT" in one["sparql"]
    run = requests.post(api("/api/templates/entity_mentions/run"), json={"params": {"entity": ENTITY + "methf"}}, timeout=30).json()
    assert [r["quote"]["value"] for r in run["rows"]] == ["2-MeTHF"]


def test_template_errors(api) -> None:
    error(requests.get(api("/api/templates/no_such_template"), timeout=30), 404)
    error(requests.get(api("/api/templates/Bad-Name"), timeout=30), 400)
    url = api("/api/templates/entity_mentions/run")
    assert "missing parameter" in error(requests.post(url, json={"params": {}}, timeout=30), 400)["error"]
    assert "unknown parameter" in error(requests.post(url, json={"params": {"entity": ENTITY, "x": 1}}, timeout=30), 400)["error"]
    assert "must be entity" in error(requests.post(url, json={"params": {"entity": "no iri"}}, timeout=30), 400)["error"]
    error(requests.post(api("/api/templates/nothing_here/run"), json={}, timeout=30), 404)


def test_writes_need_the_token(api) -> None:
    files = {"files": ("note.md", b"# Note\n\nText.\n", "text/markdown")}
    error(requests.post(api("/api/ingest"), files=files, timeout=30), 401)
    error(requests.post(api("/api/ingest"), files=files, headers={"Authorization": "Bearer wrong"}, timeout=30), 401)
    error(requests.post(api("/api/report"), json={}, timeout=30), 401)


def test_ingest_rejects_bad_uploads(api, auth) -> None:
    url = api("/api/ingest")
    assert "not a supported" in error(requests.post(url, files={"files": ("virus.exe", b"MZ", "application/octet-stream")}, headers=auth, timeout=30), 400)["error"]
    error(requests.post(url, files={"other": ("a.md", b"x", "text/markdown")}, headers=auth, timeout=30), 400)
    error(requests.post(url, json={"files": []}, headers=auth, timeout=30), 415)
    too_big = b"x" * (int(api.config["server.max_body_bytes"]) + 1)
    error(requests.post(url, files={"files": ("big.txt", too_big, "text/plain")}, headers=auth, timeout=60), 413)


def test_jobs_errors(api) -> None:
    error(requests.get(api("/api/jobs/job-999999"), timeout=30), 404)
    error(requests.get(api("/api/jobs/nonsense"), timeout=30), 400)


def test_unknown_path_and_method_use_the_error_shape(api) -> None:
    error(requests.get(api("/api/nothing"), timeout=30), 404)
    error(requests.delete(api("/api/documents"), timeout=30), 405)


def wait_for(api, job: dict[str, Any], seconds: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while job["state"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.3)
        job = requests.get(api(f"/api/jobs/{job['id']}"), timeout=30).json()
    return job


def test_report_latest_and_run_new_check(api, auth) -> None:
    error(requests.get(api("/api/report"), timeout=30), 404)
    error(requests.post(api("/api/report"), json={"engine": "fast"}, headers=auth, timeout=30), 400)
    started = requests.post(api("/api/report"), json={"engine": "rl"}, headers=auth, timeout=30)
    assert started.status_code == 202 and started.headers["Location"] == f"/api/jobs/{started.json()['id']}"
    job = wait_for(api, started.json())
    assert job["state"] == "done", job
    report = requests.get(api("/api/report"), timeout=30).json()
    assert report["verdict"] == job["result"]["verdict"] and report["summary"]
