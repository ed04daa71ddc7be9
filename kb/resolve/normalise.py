"""Surface-form normalisation and the chemical features guards compare.

Normalisation only removes differences no chemist would call a different substance: case, Unicode
variants, dash and dot forms, whitespace, a leading article, British vs American '-ise'. Everything
that can change identity (digits, locants, stereo descriptors, salt and hydrate words) is kept, and
read out separately by `features` so guards can compare it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_DASHES = str.maketrans({"‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-", "·": ".", "•": ".", "′": "'", "’": "'"})
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_SPELLING = ((re.compile(r"isation\b"), "ization"), (re.compile(r"ised\b"), "ized"), (re.compile(r"ising\b"), "izing"))

SALT_WORDS = ("hydrochloride", "hydrobromide", "mesylate", "tosylate", "besylate", "sulfate", "sulphate", "maleate",
              "fumarate", "tartrate", "citrate", "phosphate salt", "sodium salt", "potassium salt")
_SALT = re.compile(r"\b(" + "|".join(SALT_WORDS) + r")\b|[.·]\s?(hcl|hbr)\b|\b(hcl|hbr)\s+salt\b|\b(free\s+base)\b", re.IGNORECASE)
_HYDRATE = re.compile(r"\b(hemihydrate|monohydrate|dihydrate|trihydrate|sesquihydrate|hydrate|anhydrous|anhydrate)\b", re.IGNORECASE)
_STEREO = re.compile(r"\((?:[RSEZ](?:,\s?[RSEZ])*|\d+[RSEZ](?:,\s?\d+[RSEZ])*|±|rac)\)|\brac-|\b(?:[RSEZ]|[dl])-(?=[a-z(])|\b(?:cis|trans|endo|exo)-", re.IGNORECASE)
_CAS = re.compile(r"\b\d{2,7}-\d{2}-\d\b")
_NUMBER = re.compile(r"\d+")


def normalise(text: str) -> str:
    """Comparison key of a surface form ('The  Crystallisation' -> 'crystallization')."""
    folded = unicodedata.normalize("NFKC", text).translate(_DASHES).casefold()
    folded = re.sub(r"\s+", " ", folded).strip(" .,;:")
    folded = re.sub(r"\s*-\s*", "-", folded)
    folded = _ARTICLE.sub("", folded)
    for pattern, replacement in _SPELLING:
        folded = pattern.sub(replacement, folded)
    return folded


@dataclass(frozen=True)
class Features:
    """What a name says about identity beyond its letters; empty means 'not stated'."""

    numbers: tuple[str, ...] = ()
    skeleton: str = ""
    salt: frozenset[str] = frozenset()
    hydrate: frozenset[str] = frozenset()
    stereo: frozenset[str] = frozenset()
    cas: frozenset[str] = frozenset()


def _salt_forms(text: str) -> frozenset[str]:
    out = set()
    for match in _SALT.finditer(text):
        word = next(g for g in match.groups() if g).lower()
        out.add("free base" if word.startswith("free") else {"hcl": "hydrochloride", "hbr": "hydrobromide"}.get(word, word))
    return frozenset(out)


def salt_key(text: str) -> str:
    """One key for the spellings of one salt: 'KX-4471·HCl', 'KX-4471 HCl salt' and 'KX-4471
    hydrochloride' -> 'kx-4471|hydrochloride'; '' for a name without a salt form (or a free base)."""
    forms = _salt_forms(text)
    if not forms or "free base" in forms:
        return ""
    base = normalise(_SALT.sub(" ", unicodedata.normalize("NFKC", text)))
    return f"{base}|{','.join(sorted(forms))}" if base else ""


def features(text: str) -> Features:
    """Numbers and locants, the letters-only skeleton, salt form, hydrate form, stereo descriptors and CAS numbers of a form."""
    plain = unicodedata.normalize("NFKC", text).translate(_DASHES)
    cas = frozenset(_CAS.findall(plain))
    without_cas = _CAS.sub(" ", plain)
    return Features(
        numbers=tuple(sorted(_NUMBER.findall(without_cas))),
        skeleton=re.sub(r"[^a-z]", "", normalise(without_cas)),
        salt=_salt_forms(plain),
        hydrate=frozenset(m.lower() for m in _HYDRATE.findall(plain)),
        stereo=frozenset(re.sub(r"\s", "", m).lower() for m in _STEREO.findall(plain)),
        cas=cas,
    )
