"""Candidate spans the rule components propose, and sentence boundaries they share.

Rules only propose; the pipeline's resolver decides which candidates survive (longest span, then
priority), so each rule stays small and independent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# layers are resolved independently: entities never overlap each other, conditions never overlap
# each other, but a condition may sit beside or inside nothing of the entity layer
ENTITY_LAYER = "entity"
CONDITION_LAYER = "condition"


@dataclass(frozen=True)
class Candidate:
    start: int
    end: int
    kind: str
    cls: str
    rule: str
    priority: int = 1
    layer: str = ENTITY_LAYER
    attrs: tuple[tuple[str, str], ...] = field(default=())

    def attr(self, key: str, default: str = "") -> str:
        return next((v for k, v in self.attrs if k == key), default)


ABBREVIATIONS = {
    "aq", "conc", "approx", "ca", "e.g", "i.e", "vs", "no", "sat", "equiv", "eq", "vol", "min",
    "fig", "ref", "refs", "cf", "al", "etc", "ver", "temp", "wt", "max", "mol", "sect", "tab",
}
_BOUNDARY = re.compile(r"[.!?;](?=\s+[\"'(\[]?[A-Z0-9])|\n+")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence (start, end) offsets; a full stop after a lab abbreviation ('aq.', 'equiv.') is not a boundary."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group().startswith("."):
            word = re.search(r"([\w.]+)$", text[start : match.start()])
            if word and word.group(1).lower().rstrip(".") in ABBREVIATIONS:
                continue
        end = match.start() + (0 if match.group().startswith("\n") else 1)
        if text[start:end].strip():
            spans.append(_trim(text, start, end))
        start = match.end()
    if text[start:].strip():
        spans.append(_trim(text, start, len(text)))
    return spans


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def resolve(candidates: list[Candidate]) -> list[Candidate]:
    """Per layer, keep non-overlapping candidates: longest first, then higher priority, then leftmost."""
    kept: list[Candidate] = []
    for layer in sorted({c.layer for c in candidates}):
        taken: list[tuple[int, int]] = []
        ordered = sorted(
            (c for c in candidates if c.layer == layer),
            key=lambda c: (-(c.end - c.start), -c.priority, c.start, c.kind, c.rule),
        )
        for cand in ordered:
            if any(cand.start < e and s < cand.end for s, e in taken):
                continue
            taken.append((cand.start, cand.end))
            kept.append(cand)
    return sorted(kept, key=lambda c: (c.start, c.end, c.cls))
