"""When things happen: report series with their version dates, and the batches (lots) of each step.

Batch k of a step is first reported in version k-1 of its series (batches 1 and 2 in version 1),
so its start date falls before that version's date and lot numbers carry the start year.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import NamedTuple

from kb.demo.chemistry import Programme, Step
from kb.demo.model import stable_rng


@dataclass(frozen=True)
class Series:
    """A living report: its id, title, covered steps and the dates of its versions."""

    key: str
    report_id: str
    title: str
    steps: tuple[int, ...]
    dates: tuple[str, ...]
    step_from: dict[int, int]

    def file(self, version: int) -> str:
        return f"{self.report_id}_v{version}_{self.dates[version - 1]}.docx"

    def version_at(self, date: str) -> int:
        """The latest version issued on or before a date (0 if none)."""
        return sum(1 for d in self.dates if d <= date)


def _dates(start: dt.date, count: int, gap: int, rng_key: str) -> tuple[str, ...]:
    rng = stable_rng(rng_key)
    out, day = [], start
    for _ in range(count):
        out.append(day.isoformat())
        day += dt.timedelta(days=gap + rng.randrange(-6, 7))
    return tuple(out)


def series_of(prog: Programme, seed: int) -> tuple[Series, Series]:
    """The two living reports: A covers Steps 1-3, B Steps 4-6."""
    year = 2019 + prog.index
    a = Series("A", f"TR-{year}-{14 + 13 * prog.index:03d}",
               f"{prog.drug} process development: Steps 1 to 3 (oxime, nitrile and SNAr cyclisation)",
               (1, 2, 3), _dates(dt.date(year, 2, 11), 15, 38, f"{seed}:{prog.index}:A"), {1: 1, 2: 1, 3: 3})
    b = Series("B", f"TR-{year}-{27 + 13 * prog.index:03d}",
               f"{prog.drug} process development: Steps 4 to 6 and drug substance isolation",
               (4, 5, 6), _dates(dt.date(year, 9, 2), 10, 45, f"{seed}:{prog.index}:B"), {4: 1, 5: 2, 6: 1})
    return a, b


class Batch(NamedTuple):
    lot: str
    scale: str
    yield_pct: float
    purity: float
    started: str


MASS_KG: dict[int, float] = {1: 12.0, 2: 10.4, 3: 9.1, 4: 8.2, 5: 7.5, 6: 6.1}


def scale_kg(step: Step, version: int, index: int) -> float:
    """Batch scale grows from lab to pilot plant across versions."""
    base = MASS_KG[step.number] * (1 + 0.07 * index)
    return round(base if version >= 6 else base / 40, 2)


def batches(step: Step, version: int, programme: Programme) -> list[Batch]:
    """Every batch of a step reported up to a version of its series."""
    series = series_of(programme, programme.seed)[0 if step.series == "A" else 1]
    rng = stable_rng("batches", programme.rng_seed, step.id)
    out = []
    for k in range(1, version + 2):
        st = step.state(max(1, k - 1))
        y = st.condition("yield").value + rng.uniform(-2.5, 1.5)  # type: ignore[union-attr]
        p = min(99.95, st.condition("purity").value + rng.uniform(-0.4, 0.2))  # type: ignore[union-attr]
        before = rng.randrange(25, 40) if k == 1 else rng.randrange(3, 20)
        started = dt.date.fromisoformat(series.dates[max(0, k - 2)]) - dt.timedelta(days=before)
        lot = f"{programme.lot_prefix}{step.number}-{started.year % 100:02d}-{k + 3:03d}"
        scale = f"{scale_kg(step, k, programme.index):g} kg"
        out.append(Batch(lot, scale, round(y, 1), round(p, 2), started.isoformat()))
    return out
