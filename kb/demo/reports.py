"""The two living technical reports of a programme, one Document per dated version.

Wording is seeded per (programme, series, section, content version) so that a section reads the
same in every version until its content changes, as in a real living report.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from kb.demo.chemistry import Programme, Step, StepState
from kb.demo.model import Block, Composer, Document, FactSpec, Heading, PageBreak, Sentence, Table, stable_rng
from kb.demo.steps import background, batch_table, batches, charge_table, cond_fact, procedure


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
    year = 2019 + prog.index
    a = Series("A", f"TR-{year}-{14 + 13 * prog.index:03d}",
               f"{prog.drug} process development: Steps 1 to 3 (oxime, nitrile and SNAr cyclisation)",
               (1, 2, 3), _dates(dt.date(year, 2, 11), 15, 38, f"{seed}:{prog.index}:A"), {1: 1, 2: 1, 3: 3})
    b = Series("B", f"TR-{year}-{27 + 13 * prog.index:03d}",
               f"{prog.drug} process development: Steps 4 to 6 and drug substance isolation",
               (4, 5, 6), _dates(dt.date(year, 9, 2), 10, 45, f"{seed}:{prog.index}:B"), {4: 1, 5: 2, 6: 1})
    return a, b


class ReportWriter:
    """Builds one version of one series."""

    def __init__(self, prog: Programme, series: Series, version: int, seed: int) -> None:
        self.prog, self.series, self.version, self.seed = prog, series, version, seed
        self.blocks: list[Block] = []
        self.table_no = 0
        self.h1 = 0
        self.h2 = 0

    def composer(self, section: str, content_version: int) -> Composer:
        key = f"{self.seed}:{self.prog.index}:{self.series.key}:{section}:{content_version}"
        return Composer(self.prog, f"{self.seed}:{self.prog.index}:{self.series.key}", stable_rng(key))

    def next_table(self) -> int:
        self.table_no += 1
        return self.table_no

    def section(self, c: Composer, title: str) -> None:
        self.h1 += 1
        self.h2 = 0
        self.blocks += [PageBreak(), c.heading(1, f"{self.h1} {title}")]

    def sub(self, c: Composer, title: str, *, page_break: bool = True) -> None:
        self.h2 += 1
        if page_break:
            self.blocks.append(PageBreak())
        self.blocks.append(c.heading(2, f"{self.h1}.{self.h2} {title}"))

    def build(self) -> Document:
        s, v, prog = self.series, self.version, self.prog
        c = self.composer("title", v)
        date = s.dates[v - 1]
        self.blocks.append(Heading(0, c.sent(s.title)))
        self.blocks.append(c.para(c.sent(f"Report {s.report_id}, Version {v}, {date}")))
        self.blocks.append(c.para(c.sent(
            f"Programme {prog.drug}, Chemical Process Development. Status: "
            f"{'final' if v == len(s.dates) else 'draft for internal review'}.")))
        self._summary()
        self._introduction()
        for n in s.steps:
            if v >= s.step_from[n]:
                self._step(prog.step(n))
        if (s.key == "A" and v >= 8) or (s.key == "B" and v >= 5):
            self._impurities()
        self._analytics()
        self._conclusions()
        if v >= 2:
            self._history()
        return Document(s.file(v), "technical_report", "docx", prog.drug, s.title, s.report_id, v, date,
                         series=s.report_id, blocks=self.blocks)

    def _live_steps(self) -> list[Step]:
        return [self.prog.step(n) for n in self.series.steps if self.version >= self.series.step_from[n]]

    def _summary(self) -> None:
        c = self.composer("summary", self.version)
        self.section(c, "Summary")
        paras = [c.para(c.sent(
            f"This report describes the development status of {', '.join(f'Step {st.number}' for st in self._live_steps())} "
            f"of the {prog_name(self.prog)} route as of version {self.version}."))]
        for st in self._live_steps():
            state = st.state(self.version)
            solvent = next(e for e, r in state.inputs if r == "solvent")
            temp = state.condition("temperature")
            assert temp
            paras.append(c.para(c.sent(
                c.pick(("Step {n} ({name}) is currently run in {s} at {t}.",
                        "The current conditions for Step {n} ({name}) use {s} at {t}.")).format(
                    n=st.number, name=c.ref(st.id, st.name), s=c.ref(solvent), t=temp.verbatim),
                FactSpec("solvent", st.id, self.prog.entity(solvent).name), cond_fact(st, temp))))
        self.blocks += paras

    def _introduction(self) -> None:
        c = self.composer("intro", 1)
        self.section(c, "Introduction")
        self.blocks.append(c.para(
            c.sent(f"{c.ref(self.prog.pid('hcl-salt'))} is the drug substance of programme {self.prog.drug}, "
                   f"prepared in six chemical steps from {c.ref(self.prog.pid('aldehyde'))}."),
            c.sent(c.pick((
                "The route was transferred from medicinal chemistry with minimal changes and is being optimised "
                "for a first pilot-plant campaign.",
                "The medicinal chemistry route was redesigned to remove chromatography and cryogenic steps before "
                "the first pilot-plant campaign.",
            )))))
        rows = []
        for st in self.prog.steps:
            state = st.state(self.version if st.series == self.series.key else 1)
            rows.append([c.sent(c.ref(st.id, f"S{st.number}")), c.sent(c.ref(st.id, st.name)),
                         c.sent(c.ref(state.inputs[0][0])), c.sent(c.ref(state.outputs[0]))])
        cap = c.sent(f"Table {self.next_table()}: Overview of the {self.prog.drug} route.")
        self.blocks.append(Table(cap, ["Step", "Transformation", "Input", "Output"], rows))

    def _step(self, st: Step) -> None:
        v = self.version
        state = st.state(v)
        content_v = max([ch.version for ch in st.changes if ch.version <= v] + [1])
        c = self.composer(f"step{st.number}", content_v)
        self.section(c, f"Step {st.number}: {st.name}")
        self.sub(c, "Background", page_break=False)
        self.blocks.append(background(c, st, state))
        self.sub(c, "Procedure")
        self.blocks += procedure(c, st, state, v)
        if not st.prose_only:
            self.blocks.append(charge_table(c, st, state, v, self.next_table()))
        self.sub(c, "Results and discussion")
        cr = self.composer(f"step{st.number}:results", v)
        self.blocks += self._results(cr, st)
        extras = {
            (1, 6): self._doe_s1, (2, 4): self._solvent_screen, (2, 13): self._water_study,
            (3, 11): self._cstr, (4, 3): self._scavenging, (4, 5): self._doe_s4,
            (6, 4): self._cryst_screen, (6, 6): self._solid_form,
        }
        for (n, since), fn in extras.items():
            if n == st.number and v >= since:
                fn(self.composer(f"extra{n}:{since}", 1), st)

    def _results(self, c: Composer, st: Step) -> list[Block]:
        v = self.version
        rows = batches(st, v, self.prog)
        lot, scale, y, p = rows[-1]
        prev = rows[-2]
        out: list[Block] = []
        sents = [
            c.sent(f"The most recent batch, lot {lot}, was run at {scale} scale and gave {y:.1f}% yield.",
                   FactSpec("batch yield", lot, f"{y:.1f}%")),
            c.sent(f"Lot {prev[0]} gave {prev[2]:.1f}% yield with {prev[3]:.2f} area% purity by "
                   f"{c.ref('hplc')}.", FactSpec("batch yield", prev[0], f"{prev[2]:.1f}%")),
        ]
        out.append(c.para(*sents))
        news = [ch for ch in st.changes if ch.version == v]
        for ch in news:
            state = st.state(v)
            lead = c.pick(("In this version the step was changed: {d}.", "Since the previous version, the {d}."))
            out.append(c.para(c.sent(lead.format(d=ch.description)), *self._change_sentences(c, st, state)))
        if not news:
            out.append(c.para(c.sent(c.pick((
                f"No change to the conditions of Step {st.number} was made since the previous version.",
                f"The conditions of Step {st.number} were run unchanged on lot {lot}.",
                f"Lot {lot} confirmed the robustness of the Step {st.number} conditions.",
            )))))
        if not st.prose_only:
            out.append(batch_table(c, st, v, self.next_table()))
        return out

    def _change_sentences(self, c: Composer, st: Step, state: StepState) -> list[Sentence]:
        prev = st.state(self.version - 1)
        sents: list[Sentence] = []
        for cond in state.conditions:
            old = prev.condition(cond.kind, cond.about)
            if old is None or old.value != cond.value:
                was = f" (previously {old.verbatim})" if old else ""
                what = cond.kind if not cond.about else f"{cond.kind} of {c.ref(cond.about)}"
                sents.append(c.sent(f"The {what} is now {cond.verbatim}{was}.", cond_fact(st, cond)))
        for (e, r), (pe, _) in zip(state.inputs, prev.inputs):
            if e != pe:
                sents.append(c.sent(f"{c.ref(pe)} was replaced by {c.ref(e)} as {c.ref('role-' + r, r)}.",
                                    FactSpec("solvent" if r == "solvent" else "input", st.id,
                                             self.prog.entity(e).name)))
        for eq in state.equipment:
            if eq not in prev.equipment:
                sents.append(c.sent(f"The {c.ref(eq)} was introduced for this step."))
        return sents

    def _solvent_screen(self, c: Composer, st: Step) -> None:
        self.sub(c, "Solvent screen")
        rng = stable_rng(self.prog.rng_seed, "screen2")
        solvents = ["thf", "2-methf", "toluene", "acetonitrile", "ethyl-acetate", "cpme"]
        self.blocks.append(c.para(c.sent(
            f"Six solvents were screened for the dehydration of {c.ref(self.prog.pid('oxime'))} with "
            f"{c.ref('cdi')} at 60 °C, judging conversion, the level of {c.ref(self.prog.pid('imp-b'))} and the "
            f"quality of the phase split after the aqueous wash.")))
        rows = []
        for s in solvents:
            conv = {"2-methf": 99.2, "thf": 98.7}.get(s, round(rng.uniform(80, 96), 1))
            amide = round({"2-methf": 0.21, "thf": 0.35}.get(s, rng.uniform(0.3, 1.4)), 2)
            split = {"thf": "none (miscible)", "acetonitrile": "none (miscible)"}.get(s, c.pick(("clean", "clean", "slow")))
            if s == "2-methf":
                split = "clean"
            rows.append([c.sent(c.ref(s)),
                         c.sent(f"{conv:.1f}", FactSpec("screen conversion", f"{st.id}/{s}", f"{conv:.1f}%")),
                         c.sent(f"{amide:.2f}", FactSpec("screen impurity", f"{st.id}/{s}", f"{amide:.2f} area%")),
                         c.sent(split)])
        cap = c.sent(f"Table {self.next_table()}: Solvent screen for Step {st.number}.")
        self.blocks.append(Table(cap, ["Solvent", "Conversion (%)", "Amide impurity (area%)", "Phase split"], rows))
        self.blocks.append(c.para(c.sent(
            f"{c.ref('2-methf')} combined full conversion with a clean phase split and was carried forward.")))

    def _doe_s1(self, c: Composer, st: Step) -> None:
        self._doe(c, st, ("Temperature (°C)", "NH2OH·HCl (equiv)", "Time (h)"),
                  ((45, 55), (1.05, 1.2), (2, 4)), "Yield (%)", "doe1")

    def _doe_s4(self, c: Composer, st: Step) -> None:
        self._doe(c, st, ("Temperature (°C)", "Pd loading (mol%)", "K3PO4 (equiv)"),
                  ((75, 85), (0.5, 2.0), (2.0, 3.0)), "Yield (%)", "doe4")

    def _doe(self, c: Composer, st: Step, factors: tuple[str, ...], levels: tuple[tuple[float, float], ...],
             response: str, key: str) -> None:
        self.sub(c, "Design of experiments")
        rng = stable_rng(self.prog.rng_seed, key)
        self.blocks.append(c.para(c.sent(
            f"A two-level full factorial design with a centre point was run for {c.ref(st.id, f'Step {st.number}')} "
            f"to map the effect of {factors[0].split(' (')[0].lower()}, {factors[1].split(' (')[0]} and "
            f"{factors[2].split(' (')[0]} on {response.split(' (')[0].lower()}.")))
        rows = []
        runs = [(a, b, d) for a in (0, 1) for b in (0, 1) for d in (0, 1)] + [(0.5, 0.5, 0.5)]
        for i, lv in enumerate(runs, start=1):
            vals = [lo + (hi - lo) * x for (lo, hi), x in zip(levels, lv)]
            y = round(80 + 6 * lv[0] + 4 * lv[1] + 2 * lv[2] - 3 * lv[0] * lv[1] + rng.uniform(-1.5, 1.5), 1)
            imp = round(0.1 + 0.3 * lv[0] + rng.uniform(0, 0.1), 2)
            cells = [c.sent(str(i))] + [c.sent(f"{x:g}") for x in vals]
            cells.append(c.sent(f"{y:.1f}", FactSpec("DoE yield", f"{st.id}/run {i}", f"{y:.1f}%")))
            cells.append(c.sent(f"{imp:.2f}", FactSpec("DoE impurity", f"{st.id}/run {i}", f"{imp:.2f} area%")))
            rows.append(cells)
        cap = c.sent(f"Table {self.next_table()}: Design of experiments for Step {st.number}.")
        self.blocks.append(Table(cap, ["Run", *factors, response, "Impurity (area%)"], rows))

    def _water_study(self, c: Composer, st: Step) -> None:
        self.sub(c, "Water sensitivity and telescoping")
        self.blocks.append(c.para(
            c.sent(f"To telescope the oxime solution from Step 1, the dehydration was run in {c.ref('2-methf')} with "
                   f"{c.ref('water')} contents from anhydrous (<100 ppm) to saturated (about 4%)."),
            c.sent(f"Water above 1% consumed {c.ref('cdi')} and raised {c.ref(self.prog.pid('imp-b'))}, so "
                   f"{c.ref('azeotropic-drying')} to below 0.2% by {c.ref('kf')} is required before the charge.")))
        rows = []
        for ppm, conv, amide in ((100, 99.3, 0.18), (2000, 98.9, 0.24), (10000, 93.5, 0.61), (40000, 71.2, 1.85)):
            rows.append([c.sent(f"{ppm}"), c.sent(f"{conv:.1f}", FactSpec("water study conversion", f"{st.id}/{ppm} ppm", f"{conv:.1f}%")),
                         c.sent(f"{amide:.2f}")])
        cap = c.sent(f"Table {self.next_table()}: Effect of water on Step {st.number}.")
        self.blocks.append(Table(cap, ["Water (ppm)", "Conversion (%)", "Amide impurity (area%)"], rows))

    def _cstr(self, c: Composer, st: Step) -> None:
        self.sub(c, "Continuous quench")
        self.blocks.append(c.para(
            c.sent(f"To control the exotherm of the {c.ref('kotbu')} quench, the reaction stream and aqueous "
                   f"{c.ref('ammonium-chloride')} were pumped into a {c.ref('cstr')} with a residence time of 8 min."),
            c.sent("The reactor was stirred vigorously (>500 rpm) and a pH probe was used to monitor the pH of the "
                   "mixture, which remained around 9.", FactSpec("pH", st.id, "pH 9")),
            c.sent(f"The quenched stream was collected in {c.ref('r-201')} for phase separation.")))

    def _scavenging(self, c: Composer, st: Step) -> None:
        self.sub(c, "Palladium removal")
        self.blocks.append(c.para(c.sent(
            f"Residual palladium after the coupling was {c.pick(('410', '380', '455'))} ppm; three treatments were "
            f"compared by {c.ref('icp-ms')}.")))
        rows = []
        for e, after in (("siliamets-thiol", "8"), ("activated-carbon", "46"), ("quadrasil", "12")):
            rows.append([c.sent(c.ref(e)), c.sent("10 wt%"),
                         c.sent(after, FactSpec("residual palladium", f"{st.id}/{e}", f"{after} ppm"))])
        cap = c.sent(f"Table {self.next_table()}: Palladium scavenger comparison for Step {st.number}.")
        self.blocks.append(Table(cap, ["Scavenger", "Loading", "Pd after treatment (ppm)"], rows))

    def _cryst_screen(self, c: Composer, st: Step) -> None:
        self.sub(c, "Crystallisation screen")
        self.blocks.append(c.para(c.sent(
            f"Solvent and antisolvent pairs were screened for the hydrochloride formation from "
            f"{c.ref(self.prog.pid('free-base'))}, aiming at Form A with a yield above 85%.")))
        rng = stable_rng(self.prog.rng_seed, "cryst6")
        pairs = (("acetone", "mtbe"), ("acetonitrile", "mtbe"), ("isopropanol", "heptane"), ("ethanol", "mtbe"),
                 ("ethyl-acetate", "heptane"))
        rows = []
        for s, a in pairs:
            y = 91.0 if s == "acetonitrile" else round(rng.uniform(70, 88), 1)
            form = "Form A" if s in ("acetonitrile", "acetone") else c.pick(("Form A", "Form B", "amorphous"))
            rows.append([c.sent(c.ref(s)), c.sent(c.ref(a)),
                         c.sent(f"{y:.1f}", FactSpec("screen yield", f"{st.id}/{s}+{a}", f"{y:.1f}%")), c.sent(form)])
        cap = c.sent(f"Table {self.next_table()}: Crystallisation screen for Step {st.number}.")
        self.blocks.append(Table(cap, ["Solvent", "Antisolvent", "Yield (%)", "Solid form"], rows))

    def _solid_form(self, c: Composer, st: Step) -> None:
        self.sub(c, "Solid form and analytical characterisation")
        salt = self.prog.pid("hcl-salt")
        mp = f"{231.4 + self.prog.index * 1.7:.1f} °C"
        onset = f"{229.8 + self.prog.index * 1.7:.1f} °C"
        self.blocks.append(c.para(
            c.sent(f"The melting point for {c.ref(salt)} was found to be {mp} by {c.ref('dsc')}, with an onset "
                   f"melting temperature of {onset}.", FactSpec("melting point", salt, mp)),
            c.sent(f"{c.ref('xrpd')} confirmed Form A and the water content by {c.ref('kf')} was 0.12% w/w.",
                   FactSpec("water content", salt, "0.12% w/w")),
            c.sent(f"Residual {c.ref('acetonitrile')} by {c.ref('gc')} was 210 ppm, well below the ICH limit of "
                   f"410 ppm.", FactSpec("residual solvent", f"{salt}/acetonitrile", "210 ppm"))))
        self.blocks.append(c.para(c.sent(
            f"The free base {c.ref(self.prog.pid('free-base'))} is an oil that is not isolated on scale and must "
            f"not be confused with the crystalline salt {c.ref(salt)}.")))

    def _impurities(self) -> None:
        c = self.composer("impurities", 1)
        self.section(c, "Impurities and their fate")
        p = self.prog
        origin = {p.pid("imp-a"): 4, p.pid("imp-b"): 2, p.pid("imp-c"): 4, p.pid("imp-d"): 5}
        rng = stable_rng(p.rng_seed, "impurities", self.series.key)
        self.blocks.append(c.para(c.sent(
            f"Four process impurities are tracked by {c.ref('hplc')}: {c.ref(p.pid('imp-a'))}, "
            f"{c.ref(p.pid('imp-b'))}, {c.ref(p.pid('imp-c'))} and {c.ref(p.pid('imp-d'))}."),
            c.sent("Their levels in each isolated intermediate are given below, showing the purge across steps.")))
        rows = []
        for imp, step_no in origin.items():
            level = rng.uniform(0.3, 0.9)
            cells = [c.sent(c.ref(imp)), c.sent(f"S{step_no}")]
            for n in (3, 4, 5, 6):
                if n < step_no:
                    cells.append(c.sent("n.d."))
                    continue
                level = level if n == step_no else level * rng.uniform(0.15, 0.45)
                value = f"{level:.2f}" if level >= 0.05 else "<0.05"
                cells.append(c.sent(value, FactSpec("impurity level", f"{imp}@{p.pid(f's{n}')}",
                                                    f"{value} area%")))
            rows.append(cells)
        cap = c.sent(f"Table {self.next_table()}: Impurity profile (HPLC area%) after each step.")
        self.blocks.append(Table(cap, ["Impurity", "Formed in", "After S3", "After S4", "After S5", "After S6"], rows))

    def _analytics(self) -> None:
        c = self.composer("analytics", 1)
        self.section(c, "Analytical methods")
        code = f"AM-{117 + 7 * self.prog.index:04d}"
        self.blocks.append(c.para(
            c.sent(f"Purity and assay were determined by {c.ref('hplc')} method {code} on a C18 column with "
                   f"{c.ref('acetonitrile')} and {c.ref('water')} containing 0.1% {c.ref('tfa')}."),
            c.sent(f"Water content was measured by {c.ref('kf')} and residual solvents by {c.ref('gc')}.")))

    def _conclusions(self) -> None:
        v = self.version
        c = self.composer("conclusions", v)
        self.section(c, "Conclusions and next steps")
        for st in self._live_steps():
            state = st.state(v)
            solvent = next(e for e, r in state.inputs if r == "solvent")
            ready = v >= len(self.series.dates) - 3
            verdict = "ready for the pilot campaign" if ready else "subject to further optimisation"
            self.blocks.append(c.para(c.sent(
                f"Step {st.number} in {c.ref(solvent)} is {verdict}.",
                FactSpec("conclusion", st.id, f"{self.prog.entity(solvent).name}; {verdict}"))))
        self.blocks.append(c.para(c.sent(c.pick((
            f"Next, the {self.prog.drug} team will {'transfer the process' if v > 8 else 'complete the robustness work'}.",
            f"The next version of {self.series.report_id} will report the {'pilot campaign' if v > 8 else 'laboratory scale-up'}.",
        )))))

    def _history(self) -> None:
        c = self.composer("history", self.version)
        self.section(c, "Change history")
        rows = []
        for ver in range(2, self.version + 1):
            changes = [f"Step {st.number}: {ch.description}" for st in self._all_steps() for ch in st.changes
                       if ch.version == ver]
            added = [f"Step {n} section added" for n, since in self.series.step_from.items() if since == ver]
            text = "; ".join(changes + added) or "editorial update and new batches"
            rows.append([c.sent(f"{ver}"), c.sent(self.series.dates[ver - 1]), c.sent(text)])
        cap = c.sent(f"Table {self.next_table()}: Revision history of {self.series.report_id}.")
        self.blocks.append(Table(cap, ["Version", "Date", "Changes"], rows))

    def _all_steps(self) -> list[Step]:
        return [self.prog.step(n) for n in self.series.steps]


def prog_name(prog: Programme) -> str:
    return prog.drug


def report_documents(prog: Programme, seed: int) -> list[Document]:
    docs = []
    for series in series_of(prog, seed):
        for v in range(1, len(series.dates) + 1):
            docs.append(ReportWriter(prog, series, v, seed).build())
    return docs

