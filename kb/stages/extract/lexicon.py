"""The curated process-chemistry lexicon shipped as data in kb/data/lexicon/.

substances.tsv: name, category (solvent, base, acid, catalyst, ligand, ...), synonyms ('|'),
formula, CAS number. processes.tsv: name, kind (unit_operation, planned_process, equipment,
analytical_method, role), synonyms, refined class (an OBO local name, or the role class).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from kb.errors import ConfigError

SUBSTANCE_COLUMNS = ["name", "category", "synonyms", "formula", "cas"]
PROCESS_COLUMNS = ["name", "kind", "synonyms", "refined"]
PROCESS_KINDS = {"unit_operation", "planned_process", "equipment", "analytical_method", "role"}


@dataclass(frozen=True)
class LexEntry:
    """One lexicon row: a canonical name and every surface form that names the same thing."""

    name: str
    kind: str
    category: str
    forms: tuple[str, ...]
    formula: str = ""
    cas: str = ""
    refined: str = ""


def _rows(path: Path, columns: list[str]) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        if reader.fieldnames != columns:
            raise ConfigError(f"{path}: expected columns {columns}, found {reader.fieldnames}")
        rows = list(reader)
    for line, row in enumerate(rows, start=2):
        if not row["name"] or None in row.values():
            raise ConfigError(f"{path}:{line}: empty name or wrong number of fields")
    return rows


def _forms(name: str, synonyms: str, *extra: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for form in (name, *synonyms.split("|"), *extra):
        form = form.strip()
        if form:
            seen.setdefault(form, None)
    return tuple(seen)


def load_lexicon(directory: Path | None = None) -> tuple[LexEntry, ...]:
    """Read both tables; a malformed row raises ConfigError naming the file and line."""
    base = directory or Path(str(resources.files("kb") / "data" / "lexicon"))
    entries: list[LexEntry] = []
    for row in _rows(base / "substances.tsv", SUBSTANCE_COLUMNS):
        formula = row["formula"].strip()
        entries.append(
            LexEntry(
                name=row["name"],
                kind="substance",
                category=row["category"],
                forms=_forms(row["name"], row["synonyms"]),
                formula=formula,
                cas=row["cas"].strip(),
            )
        )
    for line, row in enumerate(_rows(base / "processes.tsv", PROCESS_COLUMNS), start=2):
        if row["kind"] not in PROCESS_KINDS:
            raise ConfigError(f"{base / 'processes.tsv'}:{line}: unknown kind {row['kind']!r}")
        entries.append(
            LexEntry(
                name=row["name"],
                kind=row["kind"],
                category=row["kind"],
                forms=_forms(row["name"], row["synonyms"]),
                refined=row["refined"].strip(),
            )
        )
    return tuple(entries)


@lru_cache(maxsize=1)
def default_lexicon() -> tuple[LexEntry, ...]:
    """The shipped lexicon, read once per process."""
    return load_lexicon()
