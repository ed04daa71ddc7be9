"""Metadata filters, applied as a row mask before any ranking (so k results survive filtering).

Keys: ``document`` (IRI, doc id, file name or title), ``series`` (report id, prefix match),
``version`` (``4``, ``3..5``, ``..5``, ``4..``), ``section`` (section path prefix), ``kind``
(``text``, ``list``, ``table``, ``figure``; comma-separated for several), ``language``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

import numpy as np

from kb.errors import ConfigError
from kb.retrieval.chunks import ChunkRecord
from kb.retrieval.normalise import fold

NUMBER = re.compile(r"\d+(?:\.\d+)?")


@dataclass(frozen=True)
class Filters:
    document: str = ""
    series: str = ""
    version: str = ""
    section: str = ""
    kind: str = ""
    language: str = ""

    def active(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


FILTER_KEYS = tuple(f.name for f in fields(Filters))


def parse_filters(items: list[str] | tuple[str, ...] | dict[str, str] | None) -> Filters:
    """Filters from ``key=value`` strings (CLI) or a mapping (API); unknown keys are errors."""
    if not items:
        return Filters()
    pairs = items.items() if isinstance(items, dict) else [_split(item) for item in items]
    values: dict[str, str] = {}
    for key, value in pairs:
        if key not in FILTER_KEYS:
            raise ConfigError(f"Unknown filter '{key}'; available: {', '.join(FILTER_KEYS)}")
        values[key] = str(value).strip()
    if values.get("version"):
        version_bounds(values["version"])
    return Filters(**values)


def _split(item: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep:
        raise ConfigError(f"filter {item!r}: expected key=value", hint=f"keys: {', '.join(FILTER_KEYS)}")
    return key.strip(), value


def version_number(version: str) -> float | None:
    match = NUMBER.search(version)
    return float(match.group()) if match else None


def version_bounds(spec: str) -> tuple[float, float]:
    """'4' -> (4, 4); '3..5' -> (3, 5); '..5' and '4..' are open on one side."""
    low, sep, high = spec.partition("..")
    if not sep:
        high = low
    try:
        return (float(version_number(low) or 0) if low else -np.inf, float(version_number(high) or 0) if high else np.inf)
    except ValueError as exc:
        raise ConfigError(f"filter version={spec!r}: expected N, A..B, ..B or A..") from exc


class Prefixed:
    """A string column held as its distinct values and a code per row: a prefix filter tests each
    distinct value once (a few dozen report ids) instead of every one of 32,000 rows."""

    def __init__(self, values: list[str]) -> None:
        self.distinct = sorted(set(values))
        position = {value: i for i, value in enumerate(self.distinct)}
        self.codes = np.array([position[value] for value in values], dtype=np.int64)

    def startswith(self, prefix: str) -> np.ndarray:
        hits = np.array([value.startswith(prefix) for value in self.distinct], dtype=bool)
        return hits[self.codes] if len(self.codes) else np.zeros(0, dtype=bool)


class Columns:
    """Record metadata as numpy arrays, so a filter is a few vector operations, not a loop."""

    def __init__(self, records: list[ChunkRecord]) -> None:
        def column(values: list[str]) -> np.ndarray:
            return np.array(values, dtype=object) if values else np.zeros(0, dtype=object)

        self.size = len(records)
        self.names = [column([fold(getattr(r, name)) for r in records]) for name in ("document", "graph", "file_name", "title")]
        self.names.append(column([fold(r.graph.rsplit("/", 1)[-1]) for r in records]))
        self.names.append(column([fold(r.file_name).rsplit(".", 1)[0] for r in records]))
        self.series = Prefixed([fold(r.report_id) for r in records])
        numbers = [version_number(r.version) for r in records]
        self.version = np.array([np.nan if n is None else n for n in numbers], dtype=np.float64)
        self.section = Prefixed([fold(r.section_path) for r in records])
        self.kind = column([r.kind for r in records])
        self.language = column([fold(r.language) for r in records])


def mask(columns: Columns, filters: Filters) -> np.ndarray:
    """Boolean row mask: True where a record passes every active filter."""
    keep = np.ones(columns.size, dtype=bool)
    if not filters.active():
        return keep
    if filters.document:
        wanted = fold(filters.document)
        keep &= np.logical_or.reduce([names == wanted for names in columns.names])
    if filters.series:
        keep &= columns.series.startswith(fold(filters.series))
    if filters.version:
        low, high = version_bounds(filters.version)
        with np.errstate(invalid="ignore"):
            keep &= (columns.version >= low) & (columns.version <= high)
    if filters.section:
        keep &= columns.section.startswith(fold(filters.section))
    if filters.kind:
        keep &= np.isin(columns.kind, [k.strip() for k in filters.kind.split(",")])
    if filters.language:
        keep &= columns.language == fold(filters.language)
    return keep
