"""Issue 10/12: the lexical agent's reading rules, the router's cue priorities and question linking."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kb.agent.answer import Tracer
from kb.agent.lexical import LexicalAgent, best_sentences, with_section
from kb.agent.linking import EntityLinker, LabelEntry
from kb.agent.llm import LLMChain
from kb.agent.router import rule_route
from kb.store.oxigraph_local import OxigraphLocalStore

PAR_TABLE = ("Parameter | Set point | Proven acceptable range | Classification\n"
             "Temperature | 0 °C | -5 to 5 °C | CPP\n"
             "Volume (tetrahydrofuran) | 12 vol | 10 to 14 vol | Non-critical")


def passage(text: str, kind: str = "text", iri: str = "urn:chunk:1", section: str = "") -> SimpleNamespace:
    return SimpleNamespace(iri=iri, text=text, kind=kind, section_path=section)


@pytest.mark.parametrize(("question", "route"), [
    ("How many volumes were used for acetone in Step 6?", "lexical"),
    ("How many steps use THF?", "domain"),
    ("Which RRT was reported for IMP-AC?", "lexical"),
    ("In which solvent was Step 1 (oxime formation) run?", "lexical"),
    ("Which substances are step inputs only in report TR-2019-014?", "domain"),
    ("Which three solvents are used in the most steps?", "domain"),
])
def test_value_questions_go_to_passages_and_corpus_questions_to_the_graph(question: str, route: str) -> None:
    decision = rule_route(question)
    assert decision is not None and decision.route == route, decision


def test_report_and_versions_are_read_from_file_names() -> None:
    linked = EntityLinker([LabelEntry("urn:e:13", "13", "substance", "13")]).link(
        "How did the time of Step 1 change from TR-2019-014_v8_2019-10-22.docx to TR-2019-014_v9_2019-11-30.docx in 13 h?")
    assert linked.series == ["TR-2019-014"] and linked.versions == ["8", "9"]
    assert not linked.entities, "a bare number is never an entity label"


def test_a_table_row_is_read_with_its_header_and_the_header_alone_is_no_answer() -> None:
    best = best_sentences("How many volumes of tetrahydrofuran were used?", [passage(PAR_TABLE, kind="table")], limit=3)
    assert best[0].quote == "Volume (tetrahydrofuran) | 12 vol | 10 to 14 vol | Non-critical"
    assert best[0].statement.startswith("Parameter: Volume (tetrahydrofuran); Set point: 12 vol;")
    assert all(not s.quote.startswith("Parameter |") for s in best)


def test_captions_and_the_filtered_anchor_do_not_outrank_the_statement() -> None:
    text = "Table 11: Charges for Step 3, version 13. Step 3 in THF is ready for the pilot campaign."
    best = best_sentences("In TR-2019-014 version 13, what is the stated conclusion for Step 3?",
                          [passage(text, section="8 Conclusions and next steps")], limit=1, anchors={"tr-2019-014", "13"})
    assert best[0].quote == "Step 3 in THF is ready for the pilot campaign."


def test_linked_entity_labels_count_as_the_entity() -> None:
    text = "The base was added at 0 °C. KOtBu (1.8 equiv) was introduced over 1 h."
    best = best_sentences("How much potassium tert-butoxide was charged?", [passage(text)], limit=1,
                          forms={"urn:e:kotbu": ["KOtBu", "potassium tert-butoxide"]})
    assert best[0].quote.startswith("KOtBu")


def test_section_context_drops_numbering() -> None:
    assert with_section("12 vol", "5 Step 3: SNAr cyclisation > 5.3 Charges") == "12 vol [Step 3: SNAr cyclisation > Charges]"


def test_two_versions_are_compared_in_the_order_asked() -> None:
    texts = {"8": "The oxime formation was held for 3 h.", "9": "The oxime formation was held for 2 h."}

    def search(question: str, filters: dict[str, str], k: int) -> list[SimpleNamespace]:
        assert "docx" not in question and "change" not in question.lower()
        return [passage(texts[filters["version"]], iri=f"urn:chunk:{filters['version']}")]

    agent = LexicalAgent(OxigraphLocalStore(None), search, LLMChain([]))
    linked = EntityLinker([]).link("How did the time of the oxime formation change from TR-2019-014_v8_x.docx to TR-2019-014_v9_y.docx?")
    answer = agent.answer(linked.question, linked, Tracer())
    assert answer.text.index("3 h") < answer.text.index("2 h")
    assert answer.text.startswith("In version 8:")


@pytest.mark.parametrize(("question", "k"), [("Which three solvents are used in the most steps?", 3), ("List the top 5 reagents", 5),
                                             ("Which process steps use both water and THF?", None)])
def test_ranked_questions_say_how_many_items_they_want(question: str, k: int | None) -> None:
    from kb.agent.domain import top_k

    assert top_k(question) == k


def test_a_slide_bullet_cut_at_a_semicolon_is_read_whole() -> None:
    best = best_sentences("At what temperature was Step 2 carried out?", [passage("Solvent for KX-4471 Step 2: tetrahydrofuran; 65 °C, 4 h")], limit=1)
    assert best[0].quote == "Solvent for KX-4471 Step 2: tetrahydrofuran; 65 °C, 4 h"


def test_the_step_number_does_not_pick_the_table_row() -> None:
    table = "Run | Yield (%) | Impurity (area%)\n4 | 85.0 | 0.10\n8 | 87.1 | 0.44"
    best = best_sentences("What was the DoE impurity for run 8 in Step 4?", [passage(table, kind="table")], limit=1)
    assert best[0].quote == "8 | 87.1 | 0.44"


def test_a_statement_without_the_asked_attribute_loses_to_one_that_states_it() -> None:
    summary = passage("The current conditions for Step 4 (Suzuki coupling) use PhMe at 85 °C.", iri="urn:chunk:summary", section="9 Summary")
    slide = passage("Isolated yield 84.0% of RA-X41 in R-201", iri="urn:chunk:slide", section="Step 4: Suzuki coupling")
    best = best_sentences("Which yield was reported for Step 4 (Suzuki coupling)?", [summary, slide], limit=1)
    assert best[0].passage.iri == "urn:chunk:slide"


def test_the_column_the_question_names_is_read_first() -> None:
    table = ("Impurity | Formed in | After S5 | After S6\n"
             "N-tert-butyl impurity | S5 | 0.56 | 0.19")
    best = best_sentences("Which impurity level was reported for N-tert-butyl impurity after Step 6?", [passage(table, kind="table")], limit=1)
    assert best[0].statement.startswith("After S6: 0.19; Impurity: N-tert-butyl impurity;")


def test_a_table_row_states_the_quantity_its_column_names() -> None:
    screen = passage("Solvent | Conversion (%) | Phase split\nTHF | 98.7 | None\nPhMe | 81.9 | Clean", kind="table",
                     iri="urn:chunk:screen", section="4 Step 2: dehydration to nitrile > 4.7 Solvent screen")
    prose = passage("Step 2 (dehydration to nitrile) is run in R-101 and delivers nitrile 7.", iri="urn:chunk:prose",
                    section="4 Step 2: dehydration to nitrile > 4.1 Background")
    best = best_sentences("Which screen conversion was reported for toluene in Step 2 (dehydration to nitrile)?", [prose, screen],
                          limit=1, forms={"urn:e:toluene": ["toluene", "PhMe"]})
    assert best[0].quote == "PhMe | 81.9 | Clean"


def test_a_section_about_another_step_is_read_last() -> None:
    step3 = passage("Parameter | Set point\nVolume (tetrahydrofuran) | 12 vol", kind="table", iri="urn:chunk:a",
                    section="5 Step 3: SNAr cyclisation > Critical process parameters")
    step2 = passage("Parameter | Set point\nVolume (THF) | 10 vol", kind="table", iri="urn:chunk:b",
                    section="4 Step 2: dehydration to nitrile > Critical process parameters")
    best = best_sentences("How many volumes were used for tetrahydrofuran in Step 2?", [step3, step2], limit=1)
    assert best[0].passage.iri == "urn:chunk:b"


def test_decimals_are_one_number() -> None:
    from kb.agent.lexical import terms

    assert {"8.2", "85.4"} <= terms("run at 8.2 kg scale and gave 85.4% yield") and "2" not in terms("8.2 kg")


def test_the_section_is_opened_when_no_hit_states_the_asked_quantity() -> None:
    background = passage("Step 6 (salt formation) is run in the 50 L reactor.", iri="urn:chunk:background",
                         section="4 Step 6: salt formation > 4.1 Background")
    procedure = passage("This gave KX-4471 hydrochloride in 88.0% yield and 99.7 area% purity by HPLC.", iri="urn:chunk:procedure",
                        section="4 Step 6: salt formation > 4.2 Procedure")
    opened: list[str] = []

    def chapter(iri: str) -> list[SimpleNamespace]:
        opened.append(iri)
        return [background, procedure]

    agent = LexicalAgent(OxigraphLocalStore(None), lambda question, filters, k: [background], LLMChain([]), chapter=chapter)
    linked = EntityLinker([]).link("What was the purity for Step 6 (salt formation)?")
    tracer = Tracer()
    answer = agent.answer(linked.question, linked, tracer)
    assert opened == ["urn:chunk:background"] and "99.7 area%" in answer.text
    assert any(step.step == "lexical.open_section" for step in tracer.steps)

    opened.clear()
    agent.answer("Which reactor was Step 6 (salt formation) run in?", EntityLinker([]).link("Which reactor was Step 6 (salt formation) run in?"), Tracer())
    assert not opened, "a question asking no quantity reads the hits only"


def test_a_comparison_reads_changed_statements_from_the_same_section() -> None:
    safety = "3 Step 4: Suzuki coupling > 3.5 Process safety"
    batches = "3 Step 4: Suzuki coupling > 3.4 Experimental details of the batches"
    texts = {
        "3": [("The current conditions for Step 4 (Suzuki coupling) use PhMe at 85 °C.", "1 Summary"),
              ("A short temperature excursion to 89 °C during the addition had no impact on quality.", batches),
              ("The adiabatic temperature rise was estimated at 46 K, giving a maximum temperature of 131 °C.", safety)],
        "4": [("The adiabatic temperature rise was estimated at 46 K, giving a maximum temperature of 126 °C.", safety),
              ("A short temperature excursion to 89 °C during the addition had no impact on quality.", batches),
              ("The current conditions for Step 4 (Suzuki coupling) use PhMe at 80 °C.", "1 Summary")],
    }

    def search(question: str, filters: dict[str, str], k: int) -> list[SimpleNamespace]:
        version = filters["version"]
        return [passage(text, iri=f"urn:chunk:{version}:{i}", section=section) for i, (text, section) in enumerate(texts[version])]

    agent = LexicalAgent(OxigraphLocalStore(None), search, LLMChain([]))
    linker = EntityLinker([LabelEntry("urn:e:s4", "Step 4", "process", "Step 4"), LabelEntry("urn:e:s4", "Suzuki coupling", "process", "Step 4")])
    linked = linker.link("How did the temperature of Step 4 (Suzuki coupling) change from TR-2019-027_v3_x.docx to TR-2019-027_v4_y.docx?")
    answer = agent.answer(linked.question, linked, Tracer())
    assert "85 °C" in answer.text and "80 °C" in answer.text, answer.text
    assert "excursion" not in answer.text, "a statement both versions make says nothing about the change"


def test_concluded_asks_for_the_conclusions_section() -> None:
    summary = passage("The current conditions for Step 3 (SNAr cyclisation) use THF at 0 °C.", iri="urn:chunk:a", section="1 Summary")
    conclusion = passage("Step 3 in THF is ready for the pilot campaign.", iri="urn:chunk:b", section="8 Conclusions and next steps")
    best = best_sentences("What was concluded about Step 3 (SNAr cyclisation)?", [summary, conclusion], limit=1)
    assert best[0].passage.iri == "urn:chunk:b"
