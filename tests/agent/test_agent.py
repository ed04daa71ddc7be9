"""Issue 10 on a hand-built two-layer graph: routing, domain answers with citations, safety."""

from __future__ import annotations

import pytest

from kb.agent.core import Agent
from kb.agent.llm import LLMChain, NoneBackend
from kb.agent.phrasing import check_wording
from kb.stats import all_quads
from kb.store.serialize import sorted_nquads


def passage_search_unavailable(question: str, filters: dict[str, str], k: int) -> list[object]:
    return []


@pytest.fixture
def agent(two_layer_store, config) -> Agent:  # type: ignore[no-untyped-def]
    return Agent(two_layer_store, config, search=passage_search_unavailable)


def assert_cited_verbatim(answer, store) -> None:  # type: ignore[no-untyped-def]
    from kb.agent.citations import CitationBuilder

    builder = CitationBuilder(store)
    for item in answer.items:
        assert item.citations, item.text
        for citation in item.citations:
            assert citation.quote and citation.quote in builder.chunk(citation.chunk)["text"]


def test_overlap_question_returns_the_complete_set_with_citations(agent: Agent, two_layer_store) -> None:  # type: ignore[no-untyped-def]
    answer = agent.ask("Which process steps have water and 2-MeTHF in common?")
    assert answer.route == "domain"
    assert [i.text for i in answer.items] == ["Step 3: SNAr cyclisation"]
    assert_cited_verbatim(answer, two_layer_store)
    assert any("2-MeTHF" in c.quote for c in answer.items[0].citations)
    steps = [s.step for s in answer.trace]
    assert steps[:2] == ["link", "route"] and "domain.run" in steps


def test_fan_in_by_alternative_label(agent: Agent) -> None:
    answer = agent.ask("Which steps take H2O as an input?")
    assert sorted(i.text for i in answer.items) == ["Step 1: oxime formation", "Step 3: SNAr cyclisation"]
    run = next(s for s in answer.trace if s.step == "domain.run")
    assert run.detail["template"] == "steps_taking_input"
    assert "SELECT" in run.detail["sparql"]


def test_no_template_fits_says_so(agent: Agent) -> None:
    answer = agent.ask("Which steps use both unobtainium and water?", route="domain")
    assert not answer.found_evidence
    assert answer.items == []


@pytest.mark.parametrize(
    "question",
    [
        "SELECT * WHERE { ?s ?p ?o } ; DROP ALL",
        "Which steps use water\" } ; DELETE WHERE { ?s ?p ?o } #",
        "{" * 300,
        "Welche Schritte verwenden Wasser und 2-MeTHF gemeinsam?",
        "x" * 5000,
        "\x00\x01\x02",
    ],
)
def test_hostile_questions_are_safe_and_never_write(agent: Agent, two_layer_store, question: str) -> None:  # type: ignore[no-untyped-def]
    before = sorted_nquads(all_quads(two_layer_store))
    answer = agent.ask(question)
    assert isinstance(answer.text, str) and answer.text
    for item in answer.items:
        assert item.citations
    assert sorted_nquads(all_quads(two_layer_store)) == before


def test_llm_wording_checks() -> None:
    quotes = ["The oxime was formed in water at 20 °C over 2 h."]
    assert check_wording("It was run at 20 °C [1].", quotes) is None
    assert check_wording("It was run at 25 °C [1].", quotes) == "number 25 is not in the cited passages"
    assert check_wording("It was run at 20 °C [2].", quotes) == "a citation points at no supplied passage"
    assert check_wording("It was run at 20 °C.", quotes) == "no citation marker"
    assert check_wording("The answer is: [1]", quotes, "It was run at 20 °C.") == "the wording states no value and shares no word with the cited passages"
    assert check_wording("Run in water [1].", quotes, "It was run in water at 20 °C.") == "the wording drops every value of the extractive answer"


def test_none_backend_chain_is_disabled() -> None:
    chain = LLMChain([NoneBackend()])
    assert not chain.enabled
    assert chain.complete([{"role": "user", "content": "hi"}]).text is None
