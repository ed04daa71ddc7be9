"""Text normalisation shared by the keyword index and queries, so both sides speak one vocabulary.

A text becomes terms with their character spans in the raw text (for highlighting): words are
NFKC-normalised, case-folded and Snowball-stemmed; identifiers such as ``RA-X35-0042`` stay whole
as well as split; quantities become one unit-normalised term (``60 °C``, ``60 C`` and ``60°C``
all give ``60degc``); chemical names and abbreviations add their synonyms' terms (``MeCN`` also
yields ``acetonitril``) and a lexicon substance its category (``THF`` also yields ``solvent``);
step numbers are one term (``Step 3`` -> ``step3``). The synonym table is the extraction lexicon
(kb/data/lexicon) plus a small abbreviation list (kb/data/retrieval/abbreviations.tsv).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import Stemmer
from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_GERMAN

# "60 °C", "60°C", "60 C", "60 ℃", "1,5 h", "10 vol", "2.0 equiv", "85%"
_UNITS: dict[str, str] = {
    "°c": "degc", "ºc": "degc", "˚c": "degc", "℃": "degc", "c": "degc", "degc": "degc", "deg c": "degc", "oc": "degc",
    "°f": "degf", "k": "k", "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "std": "h",
    "min": "min", "mins": "min", "minute": "min", "minutes": "min", "s": "s", "sec": "s",
    "ml": "ml", "l": "l", "µl": "ul", "μl": "ul", "g": "g", "kg": "kg", "mg": "mg", "mmol": "mmol", "mol": "mol",
    "%": "pct", "wt%": "wtpct", "vol": "vol", "vols": "vol", "volumes": "vol", "v": "vol", "l/kg": "vol",
    "equiv": "equiv", "eq": "equiv", "equiv.": "equiv", "eq.": "equiv", "äq": "equiv",
    "bar": "bar", "mbar": "mbar", "rpm": "rpm", "m": "molar", "n": "normal", "ppm": "ppm", "nm": "nm",
}
# a quantity also stands for what it measures, so "how long" or "what temperature" reaches a
# sentence that only says "stirred at 50 °C for 3 h"
_DIMENSIONS: dict[str, str] = {
    "degc": "temperature", "degf": "temperature", "h": "time", "min": "time", "s": "time", "bar": "pressure", "mbar": "pressure",
}
# question wordings of an attribute -> the words a passage stating it uses
ATTRIBUTES: dict[str, str] = {
    "how long": "time", "duration": "time", "how hot": "temperature", "how warm": "temperature",
    "how pure": "purity", "recommendation": "conclusion", "recommendations": "conclusion", "recommended": "conclusion",
}
ATTRIBUTE = re.compile(r"(?<!\w)(" + "|".join(re.escape(a) for a in ATTRIBUTES) + r")(?!\w)", re.IGNORECASE)
_UNIT_PATTERN = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
QUANTITY = re.compile(
    rf"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?(?:[-–]\s?\d+(?:[.,]\d+)?\s?)?({_UNIT_PATTERN})(?![\w])",
    re.IGNORECASE,
)
# words, numbers and hyphenated identifiers (2-MeTHF, RA-X35-0042, TR-2019-014)
TOKEN = re.compile(r"\w+(?:[-./]\w+)*")
WORD = re.compile(r"\w+")
# "v4", "version 4", "Version 4.0", "rev. 2" -> "v4" (version words in questions and titles)
VERSION = re.compile(r"(?<!\w)(?:v|version|rev\.?|revision)\s?(\d+)(?:\.0)?(?!\w)", re.IGNORECASE)
# "Step 3", "step 3", "Stufe 3" -> "step3": "step" and "3" alone match every step of every route
STEP = re.compile(r"(?<!\w)(?:step|stufe)\s?(\d+)(?![\w.,])", re.IGNORECASE)

STOPWORDS = frozenset(STOPWORDS_EN) | frozenset(STOPWORDS_GERMAN) | {"what", "which", "was", "were", "used"}
_STEMMER = Stemmer.Stemmer("english")


@dataclass(frozen=True)
class Term:
    """One index term and the raw-text span it came from."""

    term: str
    start: int
    end: int


def fold(text: str) -> str:
    """NFKC plus case folding: the comparison form of any string."""
    return unicodedata.normalize("NFKC", text).casefold()


def stem(word: str) -> str:
    return _STEMMER.stemWord(word)


def quantity_term(number: str, unit: str) -> str:
    """'60', '°C' -> '60degc'; '1,50' -> '1.5' (German decimal comma, trailing zeros dropped)."""
    value = number.replace(",", ".")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value + _UNITS[fold(unit).replace(" ", " ")]


@dataclass(frozen=True)
class Synonyms:
    """Surface forms with their expansion text and category, and two matchers (short forms
    case-sensitive, long ones not)."""

    short: re.Pattern[str] | None
    long: re.Pattern[str] | None
    expansions: dict[str, str]
    categories: dict[str, str]

    def knows(self, form: str) -> bool:
        return form in self.expansions or fold(form) in self.expansions

    def expansion(self, form: str) -> str:
        """Text the form stands for; empty when that is the form itself."""
        found = self.expansions.get(form) or self.expansions.get(fold(form), "")
        return "" if fold(found) == fold(form) else found

    def category(self, form: str) -> str:
        return self.categories.get(form) or self.categories.get(fold(form), "")


@lru_cache(maxsize=1)
def synonym_table() -> Synonyms:
    """The lexicon's substances and the abbreviation list. A substance also stands for its class
    (``THF`` -> ``solvent``), so "which solvent ..." reaches "Step 3 uses THF at -5 °C"."""
    table: dict[str, str] = {}
    classes: dict[str, str] = {}
    data = resources.files("kb") / "data"
    lexicon = data / "lexicon" / "substances.tsv"
    if lexicon.is_file():
        with lexicon.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                name = row["name"].strip()
                category = (row.get("category") or "").strip().replace("_", " ")
                for form in [name, *filter(None, (f.strip() for f in (row.get("synonyms") or "").split("|")))]:
                    table.setdefault(form, name)
                    classes.setdefault(form, category)
    with (data / "retrieval" / "abbreviations.tsv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            table.setdefault(row["form"].strip(), row["expansion"].strip())
    short = sorted((f for f in table if len(f) <= 4), key=len, reverse=True)
    long = sorted((f for f in table if len(f) > 4), key=len, reverse=True)

    def matcher(forms: list[str], flags: int) -> re.Pattern[str] | None:
        if not forms:
            return None
        return re.compile(r"(?<![\w-])(" + "|".join(re.escape(f) for f in forms) + r")(?![\w-])", flags)

    def folded(values: dict[str, str]) -> dict[str, str]:
        return {fold(k): v for k, v in values.items()} | values

    return Synonyms(matcher(short, 0), matcher(long, re.IGNORECASE), folded(table), folded(classes))


def word_terms(text: str, start: int) -> list[Term]:
    """Stemmed, stop-word-free terms of one token, with identifiers kept whole and split."""
    folded = fold(text)
    parts = [(m.group(), m.start(), m.end()) for m in WORD.finditer(folded)]
    out = []
    if len(parts) > 1:
        out.append(Term(folded, start, start + len(text)))
    for word, s, e in parts:
        if word not in STOPWORDS and (len(word) > 1 or word.isdigit()):
            out.append(Term(stem(word), start + s, start + e))
    return out


def terms(text: str) -> list[Term]:
    """Every index term of a text with its span in the raw text."""
    out: list[Term] = []
    for match in TOKEN.finditer(text):
        out.extend(word_terms(match.group(), match.start()))
    for match in QUANTITY.finditer(text):
        out.append(Term(quantity_term(match.group(1), match.group(2)), match.start(), match.end()))
        dimension = _DIMENSIONS.get(_UNITS[fold(match.group(2))], "")
        out.extend(Term(stem(word), match.start(), match.end()) for word in dimension.split())
    for match in ATTRIBUTE.finditer(text):
        out.extend(Term(stem(word), match.start(), match.end()) for word in ATTRIBUTES[fold(match.group(1))].split())
    for match in VERSION.finditer(text):
        out.append(Term("v" + match.group(1), match.start(), match.end()))
    for match in STEP.finditer(text):
        out.append(Term("step" + match.group(1), match.start(), match.end()))
    synonyms = synonym_table()
    for matcher in (synonyms.short, synonyms.long):
        if matcher is None:
            continue
        for match in matcher.finditer(text):
            added = f"{synonyms.expansion(match.group(1))} {synonyms.category(match.group(1))}"
            for token in TOKEN.finditer(added):
                out.extend(Term(t.term, match.start(), match.end()) for t in word_terms(token.group(), 0))
    return out


def identifiers(text: str) -> frozenset[str]:
    """Code-like tokens (lot numbers, report ids, compound codes: a hyphen and a digit), folded."""
    return frozenset(fold(m.group()) for m in TOKEN.finditer(text) if "-" in m.group() and any(c.isdigit() for c in m.group()))


def term_list(text: str) -> list[str]:
    """Just the terms, in order: what the BM25 index and a query see."""
    return [t.term for t in terms(text)]


def matched_spans(text: str, query_terms: set[str]) -> list[tuple[int, int]]:
    """Merged raw-text spans of the terms a query shares with a text (for highlighting)."""
    spans = sorted({(t.start, t.end) for t in terms(text) if t.term in query_terms})
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
