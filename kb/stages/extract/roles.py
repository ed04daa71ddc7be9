"""Roles a substance plays, read from the words around it and from table headers.

Patterns are the ones process chemists write: 'in 10 vol of 2-MeTHF' (solvent), 'catalysed by'
and '(2 mol%)' (catalyst), 'treated with' and '(1.5 equiv)' (reagent, or base for a base),
'afforded' and 'to give' (product), 'quenched with' or an aqueous solution in a quench sentence
(quench agent), 'as antisolvent', 'was charged over 1 h' (dosed: reagent). A compound outside the
lexicon charged by mass ('nitrile 7 (9.1 kg)') is the step's substrate.
"""

from __future__ import annotations

import re

_EXPLICIT = re.compile(
    r"^\s*(?:\([^()]{0,40}\)\s*)?(?:(?:was|were)\s+(?:added|used|charged|employed)\s+)?as\s+(?:the\s+|an?\s+)?"
    r"(solvent|co-?solvent|reagent|catalyst|base|anti-?solvent|quench(?:ing)?\s+agent|starting\s+material|intermediate|product)\b",
    re.IGNORECASE,
)
_RIGHT_PRODUCT = re.compile(r"^\s*(?:\([^()]{0,60}\)\s*)?(?:was|were)\s+(?:obtained|isolated|formed|produced|collected|afforded|generated|prepared)\b", re.IGNORECASE)
_RIGHT_SOLVENT = re.compile(r"^\s*\(\s*\d+(?:\.\d+)?\s*(?:vol|volumes|V|L/kg|mL/g|mL|L)\b", re.IGNORECASE)
_RIGHT_CATALYST = re.compile(r"^\s*\(\s*\d+(?:\.\d+)?\s*mol\s?%", re.IGNORECASE)
_RIGHT_EQUIV = re.compile(r"^\s*\(\s*\d+(?:\.\d+)?\s*(?:equiv|eq)\b", re.IGNORECASE)
_RIGHT_INPUT = re.compile(r"^\s*(?:\([^()]{0,60}\)\s*)?(?:was|were)\s+(?:charged|dissolved|suspended|slurried|treated|reacted|heated|cooled|stirred)\b", re.IGNORECASE)
# a material dosed over time or in portions is added to the substrate, so it is a reagent
_RIGHT_DOSED = re.compile(
    r"^\s*(?:\([^()]{0,60}\)\s*)?(?:was|were)\s+(?:charged|added|introduced|dosed|fed)\s+"
    r"(?:portionwise|portion-wise|dropwise|slowly|in\s+(?:\w+\s+)?portions|(?:\w+\s+)?over\s+\d)",
    re.IGNORECASE,
)
_RIGHT_MASS = re.compile(r"^\s*\(\s*\d+(?:\.\d+)?\s*(?:kg|g|mg)\s*\)", re.IGNORECASE)

_LEFT_PRODUCT = re.compile(
    r"\b(?:afford(?:ed|s|ing)?|to\s+afford|gave|give|giving|to\s+give|yield(?:ed|s|ing)?|to\s+yield|furnish(?:ed|es|ing)?|"
    r"provid(?:ed|es|ing)|deliver(?:ed|s|ing)?|produc(?:ed|es|ing)|generat(?:ed|ing)|isolated\s+as|obtained\s+as|"
    r"convert(?:ed|s)?\s+(?:in)?to|led\s+to|forming|(?<![Ss]alt\s)formation\s+of|synthesis\s+of|preparation\s+of)"
    r"\s+(?:the\s+|a\s+|an\s+)?(?:(?:desired|corresponding|crude|pure|title|target|expected|final)\s+)?(?:[\w-]+\s+){0,1}$",
    re.IGNORECASE,
)
_LEFT_QUENCH = re.compile(r"\bquench(?:ed|ing)?\s+(?:\w+\s+){0,2}(?:with|by|into|using)\s+(?:(?:the\s+)?addition\s+of\s+)?(?:aqueous\s+|aq\.\s+|saturated\s+|sat\.\s+)?(?:\d+(?:\.\d+)?\s*%\s+)?$", re.IGNORECASE)
_LEFT_ANTISOLVENT = re.compile(r"\banti-?solvent\s*,?\s*(?:\([^()]*\)\s*)?$|\bantisolvent\s+addition\s+of\s+$", re.IGNORECASE)
_LEFT_CATALYST = re.compile(r"\b(?:catalys|catalyz)ed\s+by\s+(?:\w+\s+)?$|\bcatalyst\s*,?\s*$|\bcatalytic\s+(?:amount\s+of\s+)?$", re.IGNORECASE)
_LEFT_SOLVENT = re.compile(
    r"\b(?:in|from|dissolved\s+in|suspended\s+in|slurried\s+in|diluted\s+with|recrystalli[sz]ed\s+from|crystalli[sz]ed\s+from|"
    r"solvent\s*,?|mixture\s+of|solution\s+in|swapped\s+(?:in)?to|exchanged\s+(?:in)?to|switched\s+to|washed\s+with|extracted\s+(?:\w+\s+)?(?:with|into)|extraction\s+with)\s+"
    r"(?:(?:a|the|fresh|dry|anhydrous|aqueous|degassed|cold|hot|warm)\s+)?(?:\d+(?:\.\d+)?\s*(?:vol|volumes|V|mL|L)\.?\s+(?:of\s+)?)?"
    r"(?:(?:a|the|fresh|dry|anhydrous|degassed|cold)\s+)?(?:mixture\s+of\s+)?$",
    re.IGNORECASE,
)
_SOLVENT_PAIR = re.compile(r"^\s*(?:/|:|,|and|or)\s*$", re.IGNORECASE)
_LEFT_REAGENT = re.compile(
    r"\b(?:treated\s+with|treatment\s+with|reacted\s+with|reaction\s+with|react(?:s|ing)?\s+with|addition\s+of|added|adding|"
    r"charged(?:\s+with)?|charging|charge\s+of|using|coupled\s+with|condensed\s+with|condensation\s+of\s+[\w-]+\s+with|"
    r"exposed\s+to|presence\s+of|excess(?:\s+of)?|portions?\s+of|solution\s+of|mixture\s+of|suspension\s+of)\s+"
    r"(?:(?:a|an|the|excess|solid|neat|aqueous|aq\.|\d+(?:\.\d+)?\s*(?:M|N|%|wt%))\s+)*$",
    re.IGNORECASE,
)
# the material a change moved away from ('solvent changed from THF to 2-MeTHF') plays no role any more
_LEFT_REPLACED = re.compile(r"\b(?:changed|switched|moved|converted|replaced)\s+from\s+$", re.IGNORECASE)
# an aqueous solution in a sentence about a quench is what the reaction is quenched with
_QUENCH_WORD = re.compile(r"\bquench", re.IGNORECASE)
_LEFT_AQUEOUS = re.compile(r"\b(?:aqueous|aq\.|saturated|sat\.)\s+$", re.IGNORECASE)
_LEFT_BASE = re.compile(r"\bbase\s*,?\s*$|\bbase\s+\(\s*$", re.IGNORECASE)

SOLVENT_LIKE = {"solvent"}
BASE_LIKE = {"base"}
CATALYST_LIKE = {"catalyst", "ligand"}


def _normalise(name: str) -> str:
    name = re.sub(r"\s+", " ", name.lower()).replace("-", "")
    return {"cosolvent": "solvent", "antisolvent": "antisolvent", "quenching agent": "quench agent"}.get(name, name)


def role_of(text: str, start: int, end: int, sentence: tuple[int, int], category: str) -> tuple[str, str] | None:
    """(role, rule) for the substance at text[start:end], or None when nothing in context says."""
    left = text[max(sentence[0], start - 80) : start]
    right = text[end : min(sentence[1], end + 80)]
    if _LEFT_REPLACED.search(left):
        return None
    explicit = _EXPLICIT.match(right)
    if explicit:
        return _normalise(explicit.group(1)), "role.explicit"
    if _LEFT_ANTISOLVENT.search(left):
        return "antisolvent", "role.antisolvent"
    if _LEFT_QUENCH.search(left):
        return "quench agent", "role.quench"
    if _LEFT_PRODUCT.search(left) or _RIGHT_PRODUCT.match(right):
        return "product", "role.product"
    if _LEFT_CATALYST.search(left) or _RIGHT_CATALYST.match(right):
        return "catalyst", "role.catalyst"
    if _LEFT_BASE.search(left) and not re.search(r"\bfree\s+base\s*,?\s*$", left, re.IGNORECASE):
        return "base", "role.base_word"
    if _RIGHT_SOLVENT.match(right) or (category in SOLVENT_LIKE and _LEFT_SOLVENT.search(left)):
        return "solvent", "role.solvent"
    if not category and _RIGHT_MASS.match(right):
        return "starting material", "role.substrate_mass"
    if _RIGHT_EQUIV.match(right) or _LEFT_REAGENT.search(left) or _RIGHT_DOSED.match(right):
        if category in BASE_LIKE:
            return "base", "role.reagent_base"
        if category in CATALYST_LIKE:
            return "catalyst", "role.reagent_catalyst"
        return "reagent", "role.reagent"
    if not category and _RIGHT_INPUT.match(right):
        return "starting material", "role.input"
    if _LEFT_AQUEOUS.search(left) and _QUENCH_WORD.search(text[sentence[0] : sentence[1]]):
        return "quench agent", "role.quench_aqueous"
    return None


def pair_role(between: str, previous_role: str | None, category: str) -> tuple[str, str] | None:
    """'toluene/water', 'EtOH and water': a solvent right after a solvent is a co-solvent."""
    if previous_role == "solvent" and category in SOLVENT_LIKE and _SOLVENT_PAIR.match(between):
        return "solvent", "role.solvent_pair"
    return None


def header_role(header: str) -> str | None:
    """Role named by a table column header ('Solvent', 'Base (equiv)', 'Catalyst loading')."""
    lower = header.lower()
    for word, role in (
        ("antisolvent", "antisolvent"), ("anti-solvent", "antisolvent"), ("solvent", "solvent"),
        ("catalyst", "catalyst"), ("base", "base"), ("reagent", "reagent"), ("quench", "quench agent"),
        ("starting material", "starting material"), ("product", "product"),
    ):
        if re.search(rf"\b{word}", lower):
            return role
    return None
