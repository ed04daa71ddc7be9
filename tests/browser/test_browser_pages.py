"""The pages in headless Chromium: ask with citations, SPARQL editor, entity and document pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kb.report import run_check
from kb.web.testing import OXIME_TEXT

pytestmark = pytest.mark.browser


def test_ask_shows_an_answer_whose_citation_quote_appears_on_hover_and_click(site, page: Any, screenshot: Any) -> None:
    page.goto(site("/"))
    page.fill("#q", "At what temperature was the oxime formed?")
    page.click("form.ask button[type=submit]")
    page.wait_for_selector(".answer-text")
    assert "20 °C" in page.inner_text(".answer-text")
    citation = page.locator(".items .cite").first
    popover = citation.locator(".popover")
    assert not popover.is_visible()
    citation.hover()
    popover.wait_for(state="visible")
    assert OXIME_TEXT in popover.inner_text() and "p. " in popover.inner_text()
    page.mouse.move(0, 0)
    popover.wait_for(state="hidden")
    citation.click()
    popover.wait_for(state="visible")
    assert citation.get_attribute("aria-expanded") == "true"
    trace = page.locator("details.trace")
    assert not trace.locator("ol").is_visible()
    trace.locator("summary").click()
    assert trace.locator("ol li").first.is_visible()
    screenshot(page, "ask")


def test_sparql_editor_shows_a_result_table(site, page: Any, screenshot: Any) -> None:
    page.goto(site("/query"))
    page.fill("#sparql-text", "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
              "SELECT ?label WHERE { GRAPH <urn:kb:graph:domain> { ?e skos:prefLabel ?label } } ORDER BY ?label")
    page.click("#sparql-run")
    page.wait_for_selector("table.results tbody tr")
    assert page.locator("table.results th").all_inner_texts() == ["label"]
    assert page.locator("table.results tbody td").all_inner_texts() == ["2-MeTHF", "Step 1: oxime formation", "Step 3: SNAr cyclisation", "water"]
    assert "4 row(s)" in page.inner_text("#sparql-status")
    screenshot(page, "sparql")
    page.fill("#sparql-text", "SELECT WHERE {")
    page.click("#sparql-run")
    page.wait_for_selector("#sparql-status.error")
    assert "syntax" in page.inner_text("#sparql-status").lower()


def test_entity_page_lists_mentions_with_quotes(site, page: Any, screenshot: Any) -> None:
    page.goto(site("/entities?q=water"))
    page.click("ul.entities a")
    page.wait_for_selector("table.mentions")
    assert page.inner_text("h1") == "water"
    rows = page.locator("table.mentions tbody tr")
    assert rows.count() == 1 and rows.first.locator("q.quote").inner_text() == "water"
    assert "Step 1: oxime formation" in page.inner_text("table.relations")
    screenshot(page, "entity")
    rows.first.locator("a").click()
    page.wait_for_selector(".chunk:target")
    assert page.locator(".chunk:target pre").inner_text() == OXIME_TEXT


def test_document_and_report_pages(site, page: Any, screenshot: Any) -> None:
    page.goto(site("/documents"))
    page.locator("table.documents a").first.click()
    page.wait_for_selector(".section-tree li")
    assert page.locator(".section-tree a", has_text="2.1 Solvent screen").count() == 1
    assert page.locator(".chunk").count() > 5
    screenshot(page, "document")
    page.goto(site("/report"))
    assert "No report yet" in page.inner_text("main")


def test_report_page_after_a_check(site, page: Any, screenshot: Any) -> None:
    run_check(site.store, engine="rl", out_dir=Path(site.config["store.path"]).resolve().parent / "report")
    page.goto(site("/report"))
    verdict = page.inner_text(".verdict")
    assert verdict.startswith(("PASS", "FAIL"))
    screenshot(page, "report")
    page.click("text=Full report")
    page.wait_for_load_state()
    assert verdict.split(":")[0] in page.inner_text("body")
