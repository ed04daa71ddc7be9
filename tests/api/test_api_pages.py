"""The pages over plain HTTP (the browser tests drive them in Chromium): status, content, errors as pages."""

from __future__ import annotations

import requests

from kb.web.testing import ENTITY, OXIME_TEXT


def test_ask_page_renders_answer_citations_and_trace(api) -> None:
    page = requests.get(api("/"), params={"q": "At what temperature was the oxime formed?"}, timeout=120)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    html = page.text
    assert 'class="cite"' in html and OXIME_TEXT in html and '<details class="trace">' in html
    assert "/documents/" in html and "#chunk-" in html


def test_ask_page_escapes_the_question(api) -> None:
    html = requests.get(api("/"), params={"q": "<script>alert(1)</script>"}, timeout=120).text
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_other_pages_render(api) -> None:
    doc = requests.get(api("/api/documents"), timeout=30).json()["documents"][0]["id"]
    for path, needle in [("/query", "sparql-text"), ("/entities?q=water", "/entity?iri="),
                         (f"/entity?iri={ENTITY}water", "Mentions"), ("/documents", doc),
                         (f"/documents/{doc}", "section-tree"), ("/report", "Consistency report"),
                         ("/static/kb.js", "runSparql")]:
        response = requests.get(api(path), timeout=60)
        assert response.status_code == 200 and needle in response.text, path


def test_page_errors_are_pages(api) -> None:
    missing = requests.get(api("/entity"), params={"iri": ENTITY + "nothing"}, timeout=30)
    assert missing.status_code == 404 and missing.headers["Content-Type"].startswith("text/html")
    assert "is not in the domain graph" in missing.text
    assert requests.get(api("/documents/xyz"), timeout=30).status_code == 400
