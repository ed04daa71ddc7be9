"""Slide decks of a programme (PPTX) and the PDF export of one of them.

Each deck is dated; the route state it reports is the one of the latest report version issued by
that date, so decks and reports agree at any point in time.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

from kb.demo.chemistry import Programme, Step, StepState
from kb.demo.model import (
    Block,
    Composer,
    Document,
    FactSpec,
    Heading,
    Paragraph,
    Table,
    stable_rng,
)
from kb.demo.steps import cond_fact, main_input
from kb.demo.timeline import Series, batches, series_of

DeckBuilder = Callable[[Composer, Programme, Series, Series, str], list[list[Block]]]


def _state_at(step: Step, a: Series, b: Series, date: str) -> StepState:
    series = a if step.series == "A" else b
    return step.state(max(1, series.version_at(date)))


def _title_slide(c: Composer, title: str, deck_id: str, date: str) -> list[Block]:
    return [Heading(1, c.sent(title)), Paragraph([c.sent(f"Deck {deck_id}, Version 1, {date}")]),
            Paragraph([c.sent(f"Programme {c.programme.drug} - Chemical Process Development update")])]


def _step_slide(c: Composer, prog: Programme, step: Step, a: Series, b: Series, date: str) -> list[Block]:
    st = _state_at(step, a, b, date)
    solvent = next(e for e, r in st.inputs if r == "solvent")
    temp, time, yld = st.condition("temperature"), st.condition("time"), st.condition("yield")
    assert temp and time and yld
    bullets = [
        c.sent(f"{c.ref(main_input(st))} to {c.ref(st.outputs[0])}"),
        c.sent(f"Solvent for {prog.drug} Step {step.number}: {c.ref(solvent)}; {temp.verbatim}, {time.verbatim}",
               FactSpec("solvent", step.id, prog.entity(solvent).name), cond_fact(step, temp), cond_fact(step, time)),
        c.sent(f"Isolated yield {yld.verbatim} of {c.ref(st.outputs[0])} in {c.ref(st.equipment[0])}",
               cond_fact(step, yld)),
    ]
    reagents = [e for e, r in st.inputs if r in ("reagent", "catalyst", "base")][:3]
    if reagents:
        bullets.append(c.sent(f"Key reagents for {prog.drug}: " + ", ".join(c.ref(e) for e in reagents)))
    return [Heading(1, c.sent(f"Step {step.number}: {step.name}")), *[Paragraph([s], "bullet") for s in bullets]]


def _overview(c: Composer, prog: Programme, a: Series, b: Series, date: str) -> list[list[Block]]:
    rows = []
    for step in prog.steps:
        st = _state_at(step, a, b, date)
        rows.append([c.sent(c.ref(step.id, f"S{step.number}")), c.sent(c.ref(main_input(st))),
                     c.sent(c.ref(st.outputs[0])), c.sent(c.ref(next(e for e, r in st.inputs if r == "solvent")))])
    slides = [[Heading(1, c.sent("Route overview")),
               Paragraph([c.sent(f"Six steps from {c.ref(prog.pid('aldehyde'))} to {c.ref(prog.pid('hcl-salt'))}")],
                         "bullet"),
               Table(c.sent(f"Route of {prog.drug} as of {date}"), ["Step", "Input", "Output", "Solvent"], rows)]]
    slides += [_step_slide(c, prog, s, a, b, date) for s in prog.steps]
    slides.append([Heading(1, c.sent("Plan and milestones")),
                   Paragraph([c.sent(f"Report {a.report_id} covers Steps 1 to 3; report {b.report_id} covers "
                                     f"Steps 4 to 6")], "bullet"),
                   Paragraph([c.sent(f"First pilot-plant campaign of {prog.drug} planned for {int(date[:4]) + 1}")],
                             "bullet")])
    return slides


def _solvent_deck(c: Composer, prog: Programme, a: Series, b: Series, date: str) -> list[list[Block]]:
    step = prog.step(2)
    rng = stable_rng(prog.rng_seed, "deck-screen")
    rows = []
    for s in ("thf", "2-methf", "cpme", "toluene"):
        conv = {"2-methf": 99.2, "thf": 98.7}.get(s, round(rng.uniform(82, 95), 1))
        rows.append([c.sent(c.ref(s)), c.sent(f"{conv:.1f}%", FactSpec("screen conversion", f"{step.id}/{s}",
                                                                      f"{conv:.1f}%"))])
    return [
        [Heading(1, c.sent("Why change the Step 2 solvent?")),
         Paragraph([c.sent(f"{c.ref('thf')} is fully water-miscible: no phase split after the aqueous wash of "
                           f"{c.ref(prog.pid('nitrile'))}")], "bullet"),
         Paragraph([c.sent(f"{c.ref('2-methf')} gives a clean phase split and a direct solvent swap to "
                           f"{c.ref(prog.pid('nitrile'))} in Step 3")], "bullet"),
         Paragraph([c.sent(f"Do not confuse {c.ref('thf', 'THF')} with {c.ref('2-methf', '2-MeTHF')} in the "
                           f"{prog.drug} batch records: different boiling points and water miscibility")], "bullet")],
        [Heading(1, c.sent("Solvent screen results")),
         Table(c.sent("Conversion after 4 h at 60 °C"), ["Solvent", "Conversion"], rows)],
        _step_slide(c, prog, step, a, b, date),
    ]


def _snar_deck(c: Composer, prog: Programme, a: Series, b: Series, date: str) -> list[list[Block]]:
    step = prog.step(3)
    return [
        _step_slide(c, prog, step, a, b, date),
        [Heading(1, c.sent("Continuous quench demonstration")),
         Paragraph([c.sent(f"Quench of the {c.ref('kotbu')} reaction stream of {prog.drug} Step 3 in a "
                           f"{c.ref('cstr')} (residence time 8 min)")], "bullet"),
         Paragraph([c.sent("pH held around 9 throughout the run", FactSpec("pH", step.id, "pH 9"))], "bullet"),
         Paragraph([c.sent(f"{c.ref(prog.pid('boc-int'))} stays in the {c.ref('2-methf')} phase; aqueous "
                           f"{c.ref('ammonium-chloride')} discarded after {c.ref('phase-separation')}")], "bullet")],
        _batch_slide(c, prog, step, a, date),
    ]


def _batch_slide(c: Composer, prog: Programme, step: Step, series: Series, date: str) -> list[Block]:
    rows = [[c.sent(lot), c.sent(f"{y:.1f}%", FactSpec("batch yield", lot, f"{y:.1f}%"))]
            for lot, _, y, _, _ in batches(step, max(1, series.version_at(date)), prog)[-4:]]
    return [Heading(1, c.sent(f"Step {step.number} batches")),
            Table(c.sent(f"Latest lots of {c.ref(step.id, step.name)}"), ["Lot", "Yield"], rows)]


def _suzuki_deck(c: Composer, prog: Programme, a: Series, b: Series, date: str) -> list[list[Block]]:
    step = prog.step(4)
    st = _state_at(step, a, b, date)
    load = st.condition("catalyst loading")
    assert load
    return [
        _step_slide(c, prog, step, a, b, date),
        [Heading(1, c.sent("Catalyst loading and palladium control")),
         Paragraph([c.sent(f"{c.ref('pd-dppf')} loading now {load.verbatim}", cond_fact(step, load))], "bullet"),
         Paragraph([c.sent(f"{c.ref('siliamets-thiol')} treatment reduces palladium in {c.ref(prog.pid('coupled'))} "
                           f"to 8 ppm by {c.ref('icp-ms')}",
                           FactSpec("residual palladium", f"{step.id}/siliamets-thiol", "8 ppm"))], "bullet"),
         Paragraph([c.sent(f"{c.ref(prog.pid('imp-c'))} controlled by the base charge")], "bullet")],
        _batch_slide(c, prog, step, b, date),
    ]


def _salt_deck(c: Composer, prog: Programme, a: Series, b: Series, date: str) -> list[list[Block]]:
    step = prog.step(6)
    salt = prog.pid("hcl-salt")
    return [
        _step_slide(c, prog, step, a, b, date),
        [Heading(1, c.sent("Free base versus salt")),
         Paragraph([c.sent(f"{c.ref(prog.pid('free-base'))} is an oil; not isolated on scale")], "bullet"),
         Paragraph([c.sent(f"{c.ref(salt)} crystallises as Form A ({c.ref('xrpd')})")], "bullet"),
         Paragraph([c.sent(f"{prog.drug} batches seeded with 1 wt% Form A, cooled over 4 h, isolated in the "
                           f"{c.ref('fd-301')}")],
                   "bullet")],
        _batch_slide(c, prog, step, b, date),
    ]


def _impurity_deck(c: Composer, prog: Programme, a: Series, b: Series, date: str) -> list[list[Block]]:
    rows = []
    origin = (("imp-a", "S4", "protodebromination in the coupling"), ("imp-b", "S2", "nitrile hydrolysis"),
              ("imp-c", "S4", "homocoupling of the boronic acid"), ("imp-d", "S5", "tert-butyl cation trapping"))
    for key, where, why in origin:
        rows.append([c.sent(c.ref(prog.pid(key))), c.sent(where), c.sent(why)])
    return [
        [Heading(1, c.sent("Impurity origin")),
         Table(c.sent(f"Process impurities of {prog.drug}"), ["Impurity", "Formed in", "Mechanism"], rows)],
        [Heading(1, c.sent("Control strategy")),
         Paragraph([c.sent(f"{c.ref(prog.pid('imp-b'))} purged in the Step 3 crystallisation")], "bullet"),
         Paragraph([c.sent(f"{c.ref(prog.pid('imp-a'))} specified at NMT 0.15% in {c.ref(prog.pid('coupled'))}")],
                   "bullet"),
         Paragraph([c.sent(f"Final purge of all four impurities in the {c.ref('crystallisation')} of "
                           f"{c.ref(prog.pid('hcl-salt'))}")], "bullet")],
    ]


DECKS: tuple[tuple[str, str, int, DeckBuilder], ...] = (
    ("Route overview and development plan", "A", 1, _overview),
    ("Step 2 solvent screen and nitrile formation", "A", 5, _solvent_deck),
    ("Step 3 SNAr scale-up and continuous quench", "A", 11, _snar_deck),
    ("Suzuki coupling: catalyst loading and palladium control", "B", 5, _suzuki_deck),
    ("Salt formation and crystallisation of the drug substance", "B", 6, _salt_deck),
    ("Impurity fate and control strategy", "B", 8, _impurity_deck),
)
EXPORTED_DECK = 3  # index into DECKS of the deck that is also exported to PDF


def deck_documents(prog: Programme, seed: int) -> list[Document]:
    a, b = series_of(prog, seed)
    docs = []
    for i, (title, key, after, builder) in enumerate(DECKS):
        series = a if key == "A" else b
        date = (dt.date.fromisoformat(series.dates[after - 1]) + dt.timedelta(days=9)).isoformat()
        deck_id = f"PD-{date[:4]}-{prog.index * 10 + i + 1:02d}"
        full_title = f"{prog.drug}: {title}"
        c = Composer(prog, f"{seed}:{prog.index}:deck{i}", stable_rng(seed, prog.index, "deck", i))
        slides = [_title_slide(c, full_title, deck_id, date), *builder(c, prog, a, b, date)]
        doc = Document(f"{deck_id}_v1_{date}.pptx", "slide_deck", "pptx", prog.drug, full_title, deck_id, 1, date,
                       slides=slides)
        docs.append(doc)
        if i == EXPORTED_DECK:
            docs.append(dataclasses.replace(doc, file=f"{deck_id}_v1_{date}_export.pdf", kind="slide_deck_pdf",
                                            format="pdf", slides=slides))
    return docs
