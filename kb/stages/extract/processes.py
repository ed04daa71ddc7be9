"""Process steps, equipment and impurities found by shape rather than by name.

The lexicon names unit operations, named reactions, equipment types and analytical methods;
these rules add what a list cannot hold: numbered steps ('Step 2'', 'S3'), sized and tagged
equipment ('100 L glass-lined reactor', 'R-101'), and impurity designations ('IMP-AB',
'des-bromo impurity', 'impurity C').
"""

from __future__ import annotations

import re

from kb.stages.extract.mentions import KIND_CLASSES
from kb.stages.extract.spans import Candidate

# plant equipment tag prefixes (ISA-5.1 style letters): reactor, filter dryer, dryer, vessel, tank ...
EQUIPMENT_TAGS = ("R", "FD", "CVD", "VD", "TD", "V", "TK", "CF", "CE", "HX", "PF", "ND", "FB", "D", "F", "C")

_STEP = re.compile(r"\b(?:[Ss]tep|[Ss]tage)\s+(\d{1,2}[a-z]?(?:'|′)?)(?![\w.]\d)|\bS(\d{1,2})(?:'|′)?(?![\w-])")
_STEP_SUFFIX = re.compile(r"^\s+(?:step|stage|reaction)\b")
_SIZE = re.compile(
    r"(\d+(?:[.,]\d+)?\s?(?:L|mL|m3|m³|gal|litre|liter)\s+)((?:(?:glass-lined|jacketed|glass|Hastelloy|stainless[- ]steel|"
    r"enamel(?:led)?|PTFE-lined|agitated|conical|cryogenic)\s+)*)$"
)
_MATERIAL = re.compile(r"((?:(?:glass-lined|jacketed|glass|Hastelloy|stainless[- ]steel|agitated|conical)\s+)+)$")
_TAG = re.compile(r"(?<![\w-])(" + "|".join(EQUIPMENT_TAGS) + r")-\d{2,4}[A-Z]?(?![\w-])")
_IMPURITY = re.compile(
    r"(?<![\w-])(?:IMP-[A-Z0-9]{1,4}|[Ii]mpurity\s+[A-Z0-9]{1,3}(?![\w-])|"
    r"(?:[A-Za-z][\w-]*\s)?[A-Za-z][\w-]*\s(?:impurity|by-product|byproduct|dimer|degradant)"
    r"(?!\s+(?:level|profile|content|limit|fate|purge|was|is|were)))"
)
_NOT_DESCRIPTOR = re.compile(
    r"^(?:the|an?|any|each|this|that|its|major|minor|main|total|single|unknown|unspecified|specified|largest|"
    r"individual|known|new|other|one|no|key|critical|potential|process|related|of|and|or|with|as|in|for|to)\s",
    re.IGNORECASE,
)
_IMPURITY_HEAD = re.compile(
    r"^(?:des-|N-|O-|bis-|di|homo|over|proto|primary|secondary|biaryl|dimer|amide|acid|hydroxy|chloro|bromo|[\w]+-)",
    re.IGNORECASE,
)


def steps(text: str) -> list[Candidate]:
    """'Step 3', 'step 2'', 'Stage 1', 'S4' (numbered planned processes)."""
    cls = KIND_CLASSES["planned_process"]
    out = []
    for m in _STEP.finditer(text):
        number = m.group(1) or m.group(2)
        out.append(Candidate(m.start(), m.end(), "planned_process", cls, "process.step_number", 2, attrs=(("step", number),)))
    return out


def process_suffixes(text: str, base: list[Candidate]) -> list[Candidate]:
    """A named reaction followed by 'step' ('cyclisation step') is one planned-process mention."""
    out = []
    for cand in base:
        if cand.kind in {"planned_process", "unit_operation"} and cand.rule != "process.step_number":
            tail = _STEP_SUFFIX.match(text[cand.end :])
            if tail:
                out.append(Candidate(cand.start, cand.end + tail.end(), "planned_process", KIND_CLASSES["planned_process"], cand.rule + "+step", cand.priority))
    return out


def equipment(text: str, base: list[Candidate]) -> list[Candidate]:
    """Tags ('R-101', 'FD-301') and lexicon equipment extended left by size and material."""
    cls = KIND_CLASSES["equipment"]
    out = [Candidate(m.start(), m.end(), "equipment", cls, "equipment.tag", 2) for m in _TAG.finditer(text)]
    for cand in base:
        if cand.kind != "equipment":
            continue
        left = text[max(0, cand.start - 60) : cand.start]
        size = _SIZE.search(left) or _MATERIAL.search(left)
        if size:
            out.append(Candidate(cand.start - len(size.group()), cand.end, "equipment", cls, "equipment.sized", 2))
    return out


def impurities(text: str) -> list[Candidate]:
    """Impurity designations: codes, 'impurity C', and '<descriptor> impurity/dimer/by-product'."""
    cls = KIND_CLASSES["impurity"]
    out = []
    for m in _IMPURITY.finditer(text):
        start, span = m.start(), m.group()
        while _NOT_DESCRIPTOR.match(span):
            cut = _NOT_DESCRIPTOR.match(span).end()  # type: ignore[union-attr]
            start, span = start + cut, span[cut:]
        if len(span.split()) == 3 and not _IMPURITY_HEAD.match(span):
            cut = span.index(" ") + 1
            start, span = start + cut, span[cut:]
        if len(span.split()) < 2 and not span.startswith("IMP-"):
            continue
        if span.startswith(("IMP-", "impurity", "Impurity")) or _IMPURITY_HEAD.match(span):
            out.append(Candidate(start, start + len(span), "impurity", cls, "impurity.pattern", 3))
    return out
