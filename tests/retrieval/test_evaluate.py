"""The retrieval evaluation on a small slice of a generated demo program."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from kb.demo.generate import generate
from kb.ingest import ingest
from kb.retrieval.evaluate import build_questions, evaluate, gold_chunks
from kb.retrieval.index import build_index, open_index
from kb.store.oxigraph_local import OxigraphLocalStore

from .conftest import retrieval_config

SLICE = ("TR-2019-014_v1_", "TR-2019-014_v2_", "TT-2020-005_", "AP-2019-003_")


def fact(ident: str, kind: str, value: str, document: str) -> dict[str, Any]:
    return {"id": ident, "kind": kind, "subject": "s1", "value": value, "document": document,
            "text": f"Step 1 gave {value}.", "section": "Procedure", "table": None}


def test_unanchored_wording_only_for_facts_with_one_value() -> None:
    documents = [{"file": f"TR-1_v{v}.docx", "series": "TR-1", "report_id": "TR-1", "version": v, "title": "T"} for v in (1, 2)]
    gt = {
        "documents": documents,
        "steps": [{"id": "s1", "name": "oxime formation", "number": 1}],
        "facts": [
            fact("f1", "solvent", "EtOH", "TR-1_v1.docx"), fact("f2", "solvent", "MeCN", "TR-1_v2.docx"),
            fact("f3", "yield", "91%", "TR-1_v1.docx"), fact("f4", "yield", "91%", "TR-1_v2.docx"),
        ],
    }
    asked = {(q.fact_id, q.kind): q for q in build_questions(gt)}
    assert set(asked) == {("f1", "anchored"), ("f2", "anchored"), ("f3", "anchored"), ("f3", "unanchored"),
                          ("f4", "anchored"), ("f4", "unanchored")}
    assert {e.document for e in asked[("f3", "unanchored")].evidence} == {"TR-1_v1.docx", "TR-1_v2.docx"}
    assert {e.document for e in asked[("f3", "anchored")].evidence} == {"TR-1_v1.docx"}
    assert asked[("f2", "anchored")].text.startswith("In report TR-1 version 2, which solvent")


@pytest.mark.slow
def test_questions_from_ground_truth_find_their_chunks(tmp_path: Path) -> None:
    generate(tmp_path / "demo", seed=7, scale=1)
    gt = json.loads((tmp_path / "demo" / "ground_truth.json").read_text())
    docs = tmp_path / "docs"
    docs.mkdir()
    for path in sorted((tmp_path / "demo").iterdir()):
        if path.name.startswith(SLICE):
            shutil.copy(path, docs / path.name)
    config = retrieval_config(tmp_path)
    store = OxigraphLocalStore(None)
    ingest(store, [docs], config)
    build_index(store, config)
    index = open_index(config)
    questions = [q for q in build_questions(gt) if q.document.startswith(SLICE)]
    kinds = {q.kind for q in questions}
    assert {"anchored", "unanchored", "table", "german"} <= kinds
    for question in questions:
        assert question.evidence and question.document in {e.document for e in question.evidence}
        fact = question.fact_text
        assert fact not in question.text or len(fact) < 12, "questions must paraphrase, not quote"
    located = [q for q in questions if gold_chunks(q, index)]
    assert len(located) >= 0.9 * len(questions)
    report = evaluate(index, questions, config)
    fused = report.scores[("all", "fused (rrf)")]
    # floors below the figures in docs/retrieval.md (fused recall@10 0.976 on the whole program)
    assert fused.recall(10) >= 0.75
    assert fused.recall(10) > report.scores[("all", "dense")].recall(10)
    assert "| german | fused (rrf) |" in report.table()
