"""Issue 12: the answering path never sees the key; scoring, review and report behave."""

from __future__ import annotations

import csv
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kb.agent.core import Agent
from kb.evaluation.bank import EvidenceLocation, Question, read_bank, write_bank
from kb.evaluation.report import write_report
from kb.evaluation.review import export_review, read_taxonomy, select_for_review
from kb.evaluation.run import answer_all, rows_as_dicts, score_all
from kb.evaluation.scoring import GoldMatcher, choose_letter, set_scores, tier2_score
from kb.evaluation.systems import agent_system
from kb.testing import build_two_layer_store

GT = {
    "entities": [
        {"id": "water", "name": "water", "forms": ["water", "H2O"]},
        {"id": "2-methf", "name": "2-methyltetrahydrofuran", "forms": ["2-MeTHF", "MeTHF"]},
    ],
    "steps": [{"id": "s1", "number": 1, "name": "oxime formation"}, {"id": "s3", "number": 3, "name": "SNAr cyclisation"}],
}


def mcq(qid: str, stem: str, options: dict[str, str], correct: str, quote: str, cohort: str = "hard_anchored") -> Question:
    return Question(id=qid, stem=stem, options=options, correct=correct, explanation=f"The report states: {quote}", evidence_quote=quote,
                    evidence_location=EvidenceLocation(document="TR-2019-014_v4.docx", section="2 Results", page=2),
                    source_document="TR-2019-014_v4.docx", question_type="process conditions", cohort=cohort, expected_route="lexical",
                    gold_values=[options[correct]])


BANK = [
    mcq("q1", "At what temperature was the oxime formed?", {"A": "60 °C", "B": "20 °C", "C": "80 °C", "D": "0 °C"}, "B",
        "The oxime was formed in water at 20 °C over 2 h."),
    Question(id="l1", stem="Which process steps have water and 2-MeTHF in common?", options={}, correct="", explanation="", evidence_quote="",
             evidence_location=None, source_document="", question_type="overlap", cohort="list", expected_route="domain", gold_set=["s3"]),
]


def poisoned(bank: list[Question]) -> list[Question]:
    return [q.model_copy(update={"correct": "D" if q.options else "", "explanation": "poison", "evidence_quote": "poison",
                                 "gold_values": ["poison"], "gold_set": ["nothing"]}) for q in bank]


class FixedPassages:
    def __init__(self, store) -> None:  # type: ignore[no-untyped-def]
        from kb.agent.citations import CitationBuilder
        from kb.testing import chunk_with

        self.iri = chunk_with(store, "The oxime was formed in water at 20 °C over 2 h.")
        self.text = CitationBuilder(store).chunk(self.iri)["text"]

    def __call__(self, question: str, filters, k: int):  # type: ignore[no-untyped-def]
        from types import SimpleNamespace

        return [SimpleNamespace(iri=self.iri, text=self.text)]


@pytest.fixture
def agent(sample_folder: Path, config) -> Agent:  # type: ignore[no-untyped-def]
    store = build_two_layer_store(sample_folder, config)
    return Agent(store, config, search=FixedPassages(store))


def test_answers_are_identical_with_a_poisoned_key(agent: Agent) -> None:
    systems = {"router": agent_system(agent, "router", None)}
    clean = answer_all(systems, BANK)
    dirty = answer_all(systems, poisoned(BANK))
    assert [r.__dict__ for r, _ in clean["router"]] == [r.__dict__ for r, _ in dirty["router"]]


def test_router_scores_on_the_tiny_bank(agent: Agent) -> None:
    systems = {"router": agent_system(agent, "router", None)}
    evaluation = score_all(BANK, answer_all(systems, BANK), GT, None, None)
    by_id = {s.question: s for s in evaluation.scored}
    assert by_id["q1"].letter == "B" and by_id["q1"].t1 and by_id["q1"].t2
    assert (by_id["l1"].precision, by_id["l1"].recall) == (1.0, 1.0)
    assert evaluation.summary["router"]["routing_accuracy"]["rate"] == 1.0
    assert evaluation.summary["router"]["fact_accuracy"]["k"] == 1 and by_id["l1"].fact is None


def test_every_answer_item_is_checked_against_the_stored_chunk(agent: Agent) -> None:
    from kb.agent.citations import CitationBuilder

    answers = answer_all({"router": agent_system(agent, "router", None)}, BANK)
    chunks = CitationBuilder(agent.store)
    stored = score_all(BANK, answers, GT, None, None, chunk_text=lambda iri: (chunks.chunk(iri) or {}).get("text"))
    cited = stored.summary["router"]["citations"]
    assert cited["items"] > 0 and cited["cited"] == cited["verbatim"] == cited["items"]
    tampered = score_all(BANK, answers, GT, None, None, chunk_text=lambda iri: "a different text")
    assert tampered.summary["router"]["citations"]["verbatim"] == 0


def test_choose_letter_prefers_numbers_and_abstains_without_support() -> None:
    options = {"A": "60 °C", "B": "20 °C", "C": "80 °C", "D": "0 °C"}
    assert choose_letter(options, "The oxime was formed in water at 20 °C over 2 h.") == "B"
    assert choose_letter(options, "nothing relevant here") is None


def test_tier2_penalises_a_distractor_value() -> None:
    q = BANK[0]
    assert tier2_score(q, "It was formed at 20 °C.", [{"quote": q.evidence_quote}]) >= 4
    assert tier2_score(q, "It was formed at 60 °C.", [{"quote": q.evidence_quote}]) <= 1
    assert tier2_score(q, "", []) == 0


def test_set_scores_and_gold_matching() -> None:
    assert set_scores(["a", "b"], ["a", "c"]) == (0.5, 0.5)
    matcher = GoldMatcher(GT)
    assert matcher.ids("Step 3: SNAr cyclisation") == ["s3"]
    assert matcher.ids("2-MeTHF (documents=3)") == ["2-methf"]
    assert matcher.ids("unobtainium") == []


def test_bank_roundtrip_and_review_taxonomy(tmp_path: Path, agent: Agent) -> None:
    write_bank(tmp_path / "bank.jsonl", BANK)
    assert read_bank(tmp_path / "bank.jsonl") == BANK
    evaluation = score_all(BANK, answer_all({"router": agent_system(agent, "router", None)}, BANK), GT, None, None)
    sheet = tmp_path / "review.csv"
    export_review(sheet, select_for_review(evaluation.scored, passes=5), {q.id: q for q in BANK})
    rows = list(csv.DictReader(sheet.open()))
    assert rows and rows[0]["stratum"] == "double_pass"
    rows[0]["failure_code"] = "abstain"
    with sheet.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert read_taxonomy(sheet) == {"abstain": 1}
    rows[0]["failure_code"] = "bad luck"
    with sheet.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(ValueError, match="unknown failure_code 'bad luck'"):
        read_taxonomy(sheet)


def test_report_files_render(tmp_path: Path, agent: Agent) -> None:
    evaluation = score_all(BANK, answer_all({"router": agent_system(agent, "router", None)}, BANK), GT, None, None)
    meta = {"questions": 2, "mcq": 1, "lists": 1, "ground_truth": "gt.json", "llm": "none", "seconds": 1.0, "machine": "test", "review_csv": "r.csv"}
    write_report(tmp_path, evaluation.summary, rows_as_dicts(evaluation.scored), meta, None)
    for name in ("report.json", "report.md", "report.html", "tiers.png", "cohorts.png"):
        assert (tmp_path / name).stat().st_size > 0
    tables: list[str] = []

    class Tables(HTMLParser):
        def handle_starttag(self, tag: str, attrs) -> None:  # type: ignore[no-untyped-def]
            tables.append(tag)

    Tables().feed((tmp_path / "report.html").read_text())
    assert tables.count("table") >= 3


def test_equal_support_goes_to_the_value_stated_first() -> None:
    options = {"A": "10 vol", "B": "12 vol", "C": "14 vol", "D": "8 vol"}
    assert choose_letter(options, "Set point: 12 vol; Proven acceptable range: 10 to 14 vol") == "B"
    assert choose_letter(options, "nothing numeric here") is None


def test_from_to_options_need_the_order_the_answer_states() -> None:
    options = {"A": "from 2.2 equiv to 1.2 equiv", "B": "from 1.8 equiv to 2.2 equiv", "C": "from 2.2 equiv to 1.8 equiv", "D": "it stayed at 2.2 equiv"}
    assert choose_letter(options, "In version 9: KOtBu 2.2 equiv. In version 10: KOtBu 1.8 equiv.") == "C"
    wordy = {"B": "from ethanol; ready for the pilot campaign to ethanol; subject to further optimisation",
             "D": "from ethanol; subject to further optimisation to ethanol; ready for the pilot campaign"}
    assert choose_letter(wordy, "In version 11: Step 1 in ethanol is subject to further optimisation. "
                                "In version 12: Step 1 in ethanol is ready for the pilot campaign.") == "D"


def test_stems_spell_out_key_ids() -> None:
    from kb.evaluation.designer import Namer

    name = Namer({"entities": [{"id": "thf", "name": "tetrahydrofuran"}, {"id": "imp-a", "name": "IMP-AA"}],
                  "steps": [{"id": "s3", "number": 3, "name": "SNAr cyclisation"}]})
    assert name("s3/volume/thf") == "the volume of tetrahydrofuran in Step 3 (SNAr cyclisation)"
    assert name("imp-a@s3") == "IMP-AA after Step 3 (SNAr cyclisation)"
    assert name("s3/thf") == "tetrahydrofuran in Step 3 (SNAr cyclisation)"


def test_stems_name_unlexiconed_entities_as_their_document_does() -> None:
    from kb.evaluation.designer import Namer

    mentions = [{"document": "IR.pdf", "entity": "imp-a", "form": "Des-bromo impurity"},
                {"document": "IR.pdf", "entity": "thf", "form": "THF"},
                {"document": "AM.pdf", "entity": "imp-a", "form": "IMP-AA"}]
    name = Namer({"entities": [{"id": "thf", "name": "tetrahydrofuran", "in_lexicon": True},
                               {"id": "imp-a", "name": "IMP-AA", "in_lexicon": False}],
                  "steps": [{"id": "s4", "number": 4, "name": "Suzuki coupling"}], "mentions": mentions})
    assert name("imp-a@s4", "IR.pdf") == "Des-bromo impurity after Step 4 (Suzuki coupling)"
    assert name("imp-a@s4", "AM.pdf") == "IMP-AA after Step 4 (Suzuki coupling)"
    assert name("s4/thf", "IR.pdf") == "tetrahydrofuran in Step 4 (Suzuki coupling)"
    assert name("imp-a", "TR.docx") == "IMP-AA"


def test_a_value_is_read_with_its_unit() -> None:
    options = {"A": "2 h", "B": "6 h", "C": "8 h", "D": "12 h"}
    assert choose_letter(options, "Solvent for KX-4471 Step 6: MeCN; 5 °C, 12 h") == "D"


def test_digits_inside_names_do_not_decide_the_order() -> None:
    options = {"B": "from 2-methyltetrahydrofuran; subject to further optimisation to tetrahydrofuran; subject to further optimisation",
               "D": "from tetrahydrofuran; subject to further optimisation to 2-methyltetrahydrofuran; subject to further optimisation"}
    answer = ("In version 4: Step 2 in THF is subject to further optimisation. (THF = tetrahydrofuran) "
              "In version 5: Step 2 in MeTHF is subject to further optimisation. (MeTHF = 2-methyltetrahydrofuran)")
    assert choose_letter(options, answer) == "D"
