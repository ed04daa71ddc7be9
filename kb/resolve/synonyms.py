"""The synonym table: the extraction lexicon's synonym groups plus a small curated override table.

Reusing kb/data/lexicon/ keeps one list of names for extraction and resolution. The curated table
kb/data/synonyms/curated.tsv only corrects or adds groups (a form listed there leaves its lexicon
group); a form that still names two groups is ambiguous and dropped, so it never merges anything.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from kb.errors import ConfigError
from kb.resolve.normalise import normalise
from kb.stages.extract.lexicon import default_lexicon

CURATED_COLUMNS = ["name", "kind", "forms", "cas", "why"]
# lexicon kinds as resolution names them
LEXICON_KINDS = {"substance": "substance", "unit_operation": "unit_operation", "planned_process": "planned_process",
                 "equipment": "equipment", "analytical_method": "analytical_method", "role": "role"}


@dataclass(frozen=True)
class SynonymEntry:
    """One group: `key` is its identity ('substance:acetonitrile'), `cas` its registry number if known."""

    key: str
    name: str
    kind: str
    forms: tuple[str, ...]
    cas: str = ""


@dataclass(frozen=True)
class SynonymTable:
    entries: dict[str, SynonymEntry]
    index: dict[tuple[str, str], str]
    ambiguous: frozenset[tuple[str, str]]

    def lookup(self, kind: str, text: str) -> SynonymEntry | None:
        """The group a surface form of a kind belongs to, if exactly one."""
        key = self.index.get((kind, normalise(text)))
        return self.entries[key] if key else None


def _curated_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        if reader.fieldnames != CURATED_COLUMNS:
            raise ConfigError(f"{path}: expected columns {CURATED_COLUMNS}, found {reader.fieldnames}")
        rows = list(reader)
    for line, row in enumerate(rows, start=2):
        if not row["name"] or None in row.values() or row["kind"] not in LEXICON_KINDS:
            raise ConfigError(f"{path}:{line}: empty name, unknown kind or wrong number of fields")
    return rows


def build_table(curated: Path | None = None) -> SynonymTable:
    """Lexicon groups, corrected by the curated table, indexed by (kind, normalised form)."""
    path = curated or Path(str(resources.files("kb") / "data" / "synonyms" / "curated.tsv"))
    entries: dict[str, SynonymEntry] = {}
    for lex in default_lexicon():
        kind = LEXICON_KINDS[lex.kind]
        forms = lex.forms + ((lex.cas,) if lex.cas else ())
        entries[f"{kind}:{lex.name}"] = SynonymEntry(f"{kind}:{lex.name}", lex.name, kind, forms, lex.cas)
    curated_rows = _curated_rows(path)
    taken = {(row["kind"], normalise(form)) for row in curated_rows for form in row["forms"].split("|")}
    for key, entry in list(entries.items()):
        kept = tuple(f for f in entry.forms if (entry.kind, normalise(f)) not in taken)
        entries[key] = SynonymEntry(entry.key, entry.name, entry.kind, kept, entry.cas if entry.cas in kept else "")
    for row in curated_rows:
        key = f"{row['kind']}:{row['name']}"
        forms = tuple(f for f in row["forms"].split("|") if f) + ((row["cas"],) if row["cas"] else ())
        previous = entries.get(key)
        merged = tuple(dict.fromkeys((previous.forms if previous else ()) + forms))
        entries[key] = SynonymEntry(key, row["name"], row["kind"], merged, row["cas"] or (previous.cas if previous else ""))
    owners: dict[tuple[str, str], set[str]] = {}
    for key, entry in entries.items():
        for form in entry.forms:
            owners.setdefault((entry.kind, normalise(form)), set()).add(key)
    index = {form: next(iter(keys)) for form, keys in owners.items() if len(keys) == 1}
    ambiguous = frozenset(form for form, keys in owners.items() if len(keys) > 1)
    return SynonymTable(entries, index, ambiguous)


@lru_cache(maxsize=1)
def default_table() -> SynonymTable:
    """The shipped table, built once per process."""
    return build_table()
