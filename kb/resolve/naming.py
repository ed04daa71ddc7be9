"""Canonical naming: the name a chemist would use as skos:prefLabel, every other form as altLabel.

The preferred label is the most frequent full name, unless an abbreviation is written more than
twice as often as any full name (chemists say '2-MeTHF', 'HPLC'); ties go to the longer, then the
alphabetically first form. The IRI slug comes from a stable key (synonym group, step number or the
smallest normalised name), not from the label, so adding documents rarely renames an individual.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from kb.iris import slug
from kb.resolve.inputs import LocalMention
from kb.resolve.normalise import normalise

_ABBREVIATION = re.compile(r"^(?=.*[A-Z])[A-Za-z0-9()\-·.,'+\s]{1,8}$")


def is_abbreviation(form: str) -> bool:
    """'2-MeTHF', 'HPLC', 'S2', 'KOtBu' are abbreviations; 'acetonitrile', 'Step 2' are full names."""
    return bool(_ABBREVIATION.match(form)) and not re.search(r"[a-z]{4,}", form) and " " not in form.strip()


def surface_forms(mentions: Iterable[LocalMention]) -> Counter[str]:
    """Forms as written, one spelling per normalised form (the most frequent spelling)."""
    spelled: dict[str, Counter[str]] = {}
    for m in mentions:
        spelled.setdefault(normalise(m.text), Counter())[m.text.strip()] += 1
    out: Counter[str] = Counter()
    for counts in spelled.values():
        best = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        out[best] = sum(counts.values())
    return out


def _best(counts: Counter[str]) -> tuple[str, int]:
    return min(counts.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))


def preferred_label(mentions: Iterable[LocalMention], *, role: str = "") -> tuple[str, list[str]]:
    """(prefLabel, sorted altLabels) of a cluster."""
    counts = surface_forms(mentions)
    if role:
        return role, sorted(f for f in counts if f != role)
    full = Counter({f: n for f, n in counts.items() if not is_abbreviation(f)})
    abbr = Counter({f: n for f, n in counts.items() if is_abbreviation(f)})
    if full and (not abbr or _best(abbr)[1] <= 2 * _best(full)[1]):
        label = _best(full)[0]
    else:
        label = _best(abbr)[0]
    return label, sorted(f for f in counts if f != label)


def entity_slug(key: str) -> str:
    """IRI segment of a canonical entity from its stable key."""
    return slug(key)
