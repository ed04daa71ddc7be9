"""How generated questions name the demo program's answer-key entities.

The answer key gives every entity an id and a canonical name, and the documents spell it in one
of several forms. For an entity the shipped lexicon knows (a solvent, a reagent), a question uses
the canonical name: linking "CPME" to "cyclopentyl methyl ether" is a fair test of resolution.
For an entity the lexicon does not know (the impurity codes IMP-AA..IMP-AD), the corpus never
states that "IMP-AA" and "des-bromo impurity" are one thing; a question using the code about a
document that only says "des-bromo impurity" would ask for knowledge no system could find in the
corpus. Such questions name the entity as their source document does.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any


class EntityNames:
    """The name of an answer-key entity as a question about one document should spell it."""

    def __init__(self, gt: dict[str, Any]) -> None:
        self.canonical = {e["id"]: e["name"] for e in gt.get("entities", [])}
        self.in_lexicon = {e["id"] for e in gt.get("entities", []) if e.get("in_lexicon", True)}
        self.forms: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        for mention in gt.get("mentions", []):
            self.forms[(mention["document"], mention["entity"])][mention["form"]] += 1

    def __contains__(self, entity: str) -> bool:
        return entity in self.canonical

    def __call__(self, entity: str, document: str | None = None) -> str:
        """Canonical name, or the document's most frequent form when the lexicon cannot tie the two."""
        name = self.canonical.get(entity, entity)
        used = self.forms.get((document, entity)) if document and entity not in self.in_lexicon else None
        if not used or name.lower() in {form.lower() for form in used}:
            return name
        return min(used, key=lambda form: (-used[form], form))
