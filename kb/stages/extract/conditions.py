"""Process conditions with units normalised by pint, plus batch and lot identifiers.

Each condition mention keeps its verbatim text and carries the kind (temperature, time,
equivalents, volume, concentration, pH, pressure, yield, purity, ...), the numeric value and pint's
canonical unit symbol, so '50 °C', '50°C' and '50 ºC' compare equal downstream.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

import pint

from kb.stages.extract.mentions import KIND_CLASSES
from kb.stages.extract.spans import CONDITION_LAYER, Candidate

CONDITION = KIND_CLASSES["condition"]
BATCH = KIND_CLASSES["batch"]

_NUM = r"[-−–]?\d+(?:\.\d+)?"
_RANGE = rf"{_NUM}(?:\s?(?:–|-|to)\s?{_NUM})?"

# (kind, unit regex, pint unit); the first pattern that matches a span wins
UNIT_PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("temperature", r"°\s?C|ºC|℃|° C|degC", "degC"),
    ("temperature", r"K(?![\w/])", "kelvin"),
    ("catalyst loading", r"mol\s?%", "percent"),
    ("purity", r"area\s?%|%\s?a/a|a/a\s?%|%\s?area|%\s?AUC", "percent"),
    ("concentration", r"wt\s?%|%\s?w/w|w/w\s?%|%\s?w/v", "percent"),
    ("concentration", r"mg/mL|g/L|mol/L|mmol/L|ppm|M(?![\w/])", ""),
    ("equivalents", r"equiv\.?|equivalents?|eq\.(?!\w)|eq(?![\w.])", "equiv"),
    ("volume", r"vol(?:umes?)?\.?(?![\w])|V(?![\w])|L/kg|mL/g", "vol"),
    ("volume", r"mL|L(?![\w/])|m3|m³|µL", ""),
    ("pressure", r"mbar|barg|bar|psig|psi|atm|kPa|MPa|Torr|mmHg", ""),
    ("time", r"h(?![\w])|hr?s?(?![\w])|hours?|min(?:utes?|s)?(?![\w])|days?|d(?![\w])", ""),
    ("mass", r"kg|mg|g(?![\w/])", ""),
    ("amount", r"mmol|mol(?![\w%])", ""),
    ("percent", r"%", "percent"),
)
PINT_NAMES = {
    "°C": "degC", "ºC": "degC", "℃": "degC", "° C": "degC", "degC": "degC", "hr": "hour", "hrs": "hour",
    "hours": "hour", "hour": "hour", "h": "hour", "mins": "minute", "minutes": "minute", "minute": "minute",
    "min": "minute", "days": "day", "d": "day", "day": "day", "psig": "psi", "barg": "bar", "m³": "m**3",
    "µL": "microliter", "M": "molar", "L/kg": "vol", "mL/g": "vol",
}
_UNIT_RE = re.compile(
    rf"(?<![\w.])({_RANGE})\s?(" + "|".join(f"(?P<u{i}>{p})" for i, (_, p, _) in enumerate(UNIT_PATTERNS)) + r")"
)
_PH = re.compile(rf"\bpH\s?(?:of\s|=\s?|~\s?)?({_RANGE})")
_BATCH = re.compile(
    r"\b(?:[Bb]atch(?:es)?|[Ll]ots?)(?:\s+(?:no\.?|number|#|ID|code))?\s*:?\s*"
    r"((?=[A-Z0-9/-]*\d)[A-Z0-9]{1,6}(?:[-/][A-Z0-9]{1,8})+|\d{4,}[A-Z]?)\b"
)
_YIELD_CONTEXT = re.compile(r"yield|isolated|recovery|conversion", re.IGNORECASE)
_PURITY_CONTEXT = re.compile(r"purity|pure|HPLC|area|assay|a/a", re.IGNORECASE)


@lru_cache(maxsize=1)
def units() -> pint.UnitRegistry:
    """One registry with the two process-chemistry units pint lacks: equivalents and volumes."""
    registry = pint.UnitRegistry()
    registry.define("equivalent = [equivalent] = equiv = eq")
    registry.define("relative_volume = [relative_volume] = vol")
    return registry


def _number(text: str) -> Decimal:
    return Decimal(text.replace("−", "-").replace("–", "-"))


_RANGE_PARTS = re.compile(rf"^\s*({_NUM})(?:\s?(?:–|-|to)\s?({_NUM}))?\s*$")


def _value(range_text: str) -> tuple[str, str]:
    """Lower value and (for a range) upper value as decimal strings."""
    match = _RANGE_PARTS.match(range_text)
    if match is None:
        raise ValueError(range_text)
    low, high = match.groups()
    return str(_number(low)), str(_number(high)) if high else ""


@lru_cache(maxsize=1024)
def canonical_unit(kind: str, unit_text: str, pint_hint: str) -> str:
    """pint's short symbol for a unit as written ('hrs' -> 'h', '° C' -> '°C', 'eq.' -> 'equiv')."""
    name = pint_hint or PINT_NAMES.get(unit_text.strip(), unit_text.strip().rstrip("."))
    if kind == "purity":
        return "area%"
    try:
        return f"{units().parse_units(name):~}".replace("ml", "mL").replace(" l", " L").replace("l /", "L /") or unit_text
    except (pint.errors.UndefinedUnitError, AttributeError, ValueError, TypeError):
        return unit_text.strip()


def conditions(text: str) -> list[Candidate]:
    """Quantities with units, pH values and percentages classified by their context."""
    out: list[Candidate] = []
    for m in _UNIT_RE.finditer(text):
        index = next(int(k[1:]) for k, v in m.groupdict().items() if v is not None)
        kind, _, hint = UNIT_PATTERNS[index]
        unit_text = m.group(2)
        if kind == "percent":
            window = text[max(0, m.start() - 40) : m.end() + 25]
            if _YIELD_CONTEXT.search(window):
                kind = "yield"
            elif _PURITY_CONTEXT.search(window):
                kind = "purity"
        low, high = _value(m.group(1))
        unit = "%" if kind in {"yield", "percent"} else canonical_unit(kind, unit_text, hint)
        if kind == "catalyst loading":
            unit = "mol%"
        attrs = [("condition", kind), ("unit", unit), ("value", low)]
        if high:
            attrs.append(("value_max", high))
        out.append(Candidate(m.start(), m.end(), "condition", CONDITION, f"condition.{kind.replace(' ', '_')}", 2, CONDITION_LAYER, tuple(attrs)))
    for m in _PH.finditer(text):
        low, high = _value(m.group(1))
        attrs = [("condition", "pH"), ("unit", ""), ("value", low)] + ([("value_max", high)] if high else [])
        out.append(Candidate(m.start(), m.end(), "condition", CONDITION, "condition.pH", 3, CONDITION_LAYER, tuple(attrs)))
    for m in _BATCH.finditer(text):
        out.append(Candidate(m.start(1), m.end(1), "batch", BATCH, "batch.keyword", 3, CONDITION_LAYER, (("condition", "batch"),)))
    return out


def batch_cell(text: str, start: int, end: int) -> Candidate | None:
    """A table cell under a 'Batch'/'Lot' header is an identifier when it looks like one."""
    value = text[start:end].strip()
    if re.fullmatch(r"(?=.*\d)[A-Z0-9]{1,8}(?:[-/][A-Z0-9]{1,8})*", value):
        offset = text.index(value, start)
        return Candidate(offset, offset + len(value), "batch", BATCH, "batch.table_header", 3, CONDITION_LAYER, (("condition", "batch"),))
    return None
