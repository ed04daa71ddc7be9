"""Scoring, on the harness side only: Tier-1 letters, Tier-2 0-5 scores, list precision/recall.

Tier 1: the letter whose option is best supported by the system's answer and cited evidence
(numbers count double; equal support goes to the value stated first); no support at all is an
abstention. Tier 2, deterministic scorer: up to
3 points for the gold values in the free-form answer, 1 for citing the gold evidence, 1 for
naming the subject; an answer that states a distractor's value and not the gold one scores at
most 1. Pass at >= 4, as in the seed.
"""

from __future__ import annotations

import re
from typing import Any

from kb.evaluation.bank import Question
from kb.evaluation.stats import content_words, overlap

NUMBER = re.compile(r"(?<![\w.])(?<!\w-)-?\d+(?:[.,]\d+)?(?![\w'-]*[A-Za-z])")  # a value, not the 2 of 2-MeTHF
WHOLE_VALUE_BONUS = 0.5
UNIT_SPACES = re.compile(r"\s+(?=[%°])|(?<=°)\s+")


def normal(text: str) -> str:
    return UNIT_SPACES.sub("", text.lower())


def value_pattern(value: str) -> re.Pattern[str]:
    """The value as a whole number of the evidence: '2' does not match in '2-propanol' or '12'."""
    return re.compile(rf"(?<![\w.])(?<!\w-){re.escape(value)}(?![\d]|[\w'-]*[A-Za-z])" if value[:1].isdigit() or value[:1] == "-"
                      else rf"(?<![\w.]){re.escape(value)}(?![\w])")


def stated(value: str, text: str) -> re.Match[str] | None:
    return value_pattern(value).search(text)


def support(option: str, evidence: str) -> float:
    """Numbers stated count double, content words once; the whole value with its unit ('12 h', not
    the 6 of 'Step 6') earns a half point more."""
    text = normal(evidence)
    nums = NUMBER.findall(option)
    num_score = sum(1 for n in nums if stated(n, text)) / len(nums) if nums else 0.0
    words = content_words(option) - {n for n in nums}
    word_score = len(words & content_words(evidence)) / len(words) if words else 0.0
    whole = WHOLE_VALUE_BONUS if nums and stated(normal(option), text) else 0.0
    return 2 * num_score + word_score + whole if nums else word_score


FROM_TO = re.compile(r"^from (.+ to .+)$", re.IGNORECASE)


def from_to(option: str) -> tuple[str, str] | None:
    """The two sides of 'from X to Y'; with several ' to ' the most even split ('subject to further ...')."""
    match = FROM_TO.match(option.strip())
    if not match:
        return None
    body = match.group(1)
    splits = [(body[: m.start()], body[m.end() :]) for m in re.finditer(" to ", body)]
    return min(splits, key=lambda pair: abs(len(pair[0].split()) - len(pair[1].split())))


def first_position(words: set[str], evidence: str) -> int | None:
    found = [m.start() for w in words for m in [stated(w, evidence)] if m]
    return min(found) if found else None


def order_support(option: str, evidence: str) -> float:
    """'from X to Y' also needs X before Y in the evidence (the answer leads it), else it reads as 'from Y to X'."""
    sides = from_to(option)
    if sides is None:
        return 0.0
    text = normal(evidence)
    old, new = ({w for w in content_words(part) if not w.isdigit()} | set(NUMBER.findall(part)) for part in sides)
    before, after = first_position(old - new, text), first_position(new - old, text)
    return 0.5 if before is not None and after is not None and before < after else 0.0


def stated_at(option: str, evidence: str) -> int:
    """Where the option's value (for 'from X to Y', Y's) is first stated: a number, else its first
    content word; -1 if nowhere."""
    text = normal(evidence)
    sides = from_to(option)
    value = sides[1] if sides else option
    keys = NUMBER.findall(value) or sorted(content_words(value))
    found = [m.start() for key in keys for m in [stated(normal(key), text)] if m]
    return min(found) if found else -1


def choose_letter(options: dict[str, str], evidence: str) -> str | None:
    """Best-supported option. Equal support goes to the value the answer states first, as a reader
    takes 'set point 12 vol (range 10 to 14 vol)'; a tie that position cannot break is an abstention."""
    scored = sorted(((support(text, evidence) + order_support(text, evidence), letter) for letter, text in options.items()), key=lambda s: (-s[0], s[1]))
    if not scored or scored[0][0] == 0:
        return None
    tied = [letter for score, letter in scored if score == scored[0][0]]
    if len(tied) == 1:
        return tied[0]
    positions = sorted((stated_at(options[letter], evidence), letter) for letter in tied)
    positions = [(at, letter) for at, letter in positions if at >= 0]
    if not positions or (len(positions) > 1 and positions[0][0] == positions[1][0]):
        return None
    return positions[0][1]


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
