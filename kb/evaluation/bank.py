"""The question bank in the seed's fixed schema, stored as JSONL a person can review and edit.

The answering side only ever sees a ``QuestionView`` (stem and options): gold letter,
explanation, evidence and gold sets stay on this side of the harness.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

Cohort = Literal["easy_mixed", "hard_anchored", "hard_unanchored", "comparative", "list"]


class EvidenceLocation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    document: str
    section: str
    page: int
    table: dict[str, object] | None = None


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    stem: str
    options: dict[str, str]
    correct: str
    explanation: str
    evidence_quote: str
    evidence_location: EvidenceLocation | None
    source_document: str
    question_type: str
    cohort: Cohort
    expected_route: Literal["domain", "lexical"]
    gold_values: list[str] = []
    gold_set: list[str] = []
    question_class: str = ""


class QuestionView(BaseModel):
    """What the system under test is allowed to see."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    stem: str
    options: dict[str, str]


def view(question: Question) -> QuestionView:
    return QuestionView(id=question.id, stem=question.stem, options=dict(question.options))


def write_bank(path: Path, questions: list[Question]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for q in questions:
            handle.write(json.dumps(q.model_dump(), ensure_ascii=False, sort_keys=True) + "\n")


def read_bank(path: Path) -> list[Question]:
    return [Question.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
