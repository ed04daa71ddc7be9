"""Scoring, on the harness side only: Tier-1 letters, Tier-2 0-5 scores, list precision/recall.

Tier 1: the letter whose option is best supported by the system's answer and cited evidence
(numbers count double); no support at all is an abstention. Tier 2, deterministic scorer: up to
3 points for the gold values in the free-form answer, 1 for citing the gold evidence, 1 for
naming the subject; an answer that states a distractor's value and not the gold one scores at
most 1. Pass at >= 4, as in the seed.
"""

from __future__ import annotations

import re
from typing import Any

from kb.evaluation.bank import Question
from kb.evaluation.stats import NUMBER, content_words, overlap

UNIT_SPACES = re.compile(r"\s+(?=[%°])|(?<=°)\s+")


def normal(text: str) -> str:
    return UNIT_SPACES.sub("", text.lower())


def support(option: str, evidence: str) -> float:
    text = normal(evidence)
    nums = NUMBER.findall(option)
    num_score = sum(1 for n in nums if re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", text)) / len(nums) if nums else 0.0
    words = content_words(option) - {n for n in nums}
    word_score = len(words & content_words(evidence)) / len(words) if words else 0.0
    return 2 * num_score + word_score if nums else word_score


def choose_letter(options: dict[str, str], evidence: str) -> str | None:
    """Best-supported option; ties go to the option with more distinctive support, then letter order."""
    scored = sorted(((support(text, evidence), letter) for letter, text in options.items()), key=lambda s: (-s[0], s[1]))
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]


def value_present(value: str, answer: str) -> bool:
    return support(value, answer) >= (2.0 if NUMBER.search(value) else 0.99)


def tier2_score(question: Question, answer: str, citations: list[dict[str, Any]]) -> int:
    if not answer.strip():
        return 0
    golds = question.gold_values or [question.options.get(question.correct, "")]
    present = [value_present(v, answer) for v in golds]
    score = 3.0 if all(present) else 1.5 if any(present) else 0.0
    quotes = " ".join(str(c.get("quote", "")) for c in citations)
    if question.evidence_quote and (question.evidence_quote in quotes or overlap(content_words(question.evidence_quote), content_words(quotes)) >= 0.6):
        score += 1
    subject = content_words(question.stem) - content_words(" ".join(golds))
    if subject and len(subject & content_words(answer + " " + quotes)) / len(subject) >= 0.4:
        score += 1
    wrong = [t for letter, t in question.options.items() if letter != question.correct and not any(value_present(g, t) for g in golds)]
    if not all(present) and any(value_present(t, answer) for t in wrong):
        score = min(score, 1.0)
    return int(score)


def set_scores(gold: list[str], found: list[str]) -> tuple[float, float]:
    gold_set, found_set = set(gold), set(found)
    hits = len(gold_set & found_set)
    precision = hits / len(found_set) if found_set else (1.0 if not gold_set else 0.0)
    recall = hits / len(gold_set) if gold_set else 1.0
    return precision, recall


class GoldMatcher:
    """Maps answer items (labels) to ground-truth ids by names and surface forms, on the scoring side."""

    def __init__(self, gt: dict[str, Any]) -> None:
        self.names: list[tuple[str, str]] = []
        for entity in gt["entities"]:
            for form in {entity["name"], *entity["forms"]}:
                self.names.append((normal(form), entity["id"]))
        for step in gt["steps"]:
            self.names.append((normal(f"step {step['number']}"), step["id"]))
            self.names.append((normal(step["name"]), step["id"]))
        self.names.sort(key=lambda p: (-len(p[0]), p[1]))

    def ids(self, item_text: str) -> list[str]:
        label = normal(item_text.split(" (")[0] if not item_text.lower().startswith("step") else item_text)
        exact = [gid for name, gid in self.names if name == label]
        if exact:
            return exact[:1]
        for name, gid in self.names:
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", label):
                return [gid]
        return []
