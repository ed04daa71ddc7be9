"""The two living technical reports of a programme, one Document per dated version.

Wording is seeded per (programme, series, section, content version) so that a section reads the
same in every version until its content changes, as in a real living report.
"""

from __future__ import annotations

from kb.demo.chemistry import Programme, Step, StepState
from kb.demo.model import (
    Block,
    Composer,
    Document,
    FactSpec,
    Heading,
    PageBreak,
    Paragraph,
    Sentence,
    Table,
    stable_rng,
)
from kb.demo.steps import (
    background,
    batch_table,
    charge_table,
    cond_fact,
    procedure,
    the,
)
from kb.demo.timeline import Series, batches, series_of


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
                         series=s.report_id, blocks=self.blocks,
                         states=[st.state(v) for st in self._live_steps()])

    def _live_steps(self) -> list[Step]:
        return [self.prog.step(n) for n in self.series.steps if self.version >= self.series.step_from[n]]

    def _summary(self) -> None:
        c = self.composer("summary", self.version)
        self.section(c, "Summary")
        sents = [c.sent(
            f"This report describes the development status of {', '.join(f'Step {st.number}' for st in self._live_steps())} "
            f"of the {self.prog.drug} route as of version {self.version}.")]
        for st in self._live_steps():
            state = st.state(self.version)
            solvent = next(e for e, r in state.inputs if r == "solvent")
            temp = state.condition("temperature")
            assert temp
            sents.append(c.sent(
                c.pick(("Step {n} ({name}) is currently run in {s} at {t}.",
                        "The current conditions for Step {n} ({name}) use {s} at {t}.")).format(
                    n=st.number, name=c.ref(st.id, st.name), s=c.ref(solvent), t=temp.verbatim),
                FactSpec("solvent", st.id, self.prog.entity(solvent).name), cond_fact(st, temp)))
        self.blocks.append(c.para(*sents))

    def _introduction(self) -> None:
        c = self.composer("intro", 1)
        self.section(c, "Introduction")
        self.blocks.append(c.para(
            c.sent(f"{c.ref(self.prog.pid('hcl-salt'))} is the drug substance of programme {self.prog.drug}, "
                   f"prepared in six chemical steps from {c.ref(self.prog.pid('aldehyde'))}."),
            c.sent(c.pick((
                ("The route was transferred from medicinal chemistry with minimal changes and is being optimised "
                "for a first pilot-plant campaign."),
                ("The medicinal chemistry route was redesigned to remove chromatography and cryogenic steps before "
                "the first pilot-plant campaign."),
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
        self.section(c, f"Step {st.number}: {c.ref(st.id, st.name)}")
        self.sub(c, "Background", page_break=False)
        self.blocks.append(background(c, st, state))
        self.sub(c, "Procedure")
        self.blocks += procedure(c, st, state, v)
        if not st.prose_only:
            self.blocks.append(charge_table(c, st, state, v, self.next_table()))
        self.sub(c, "Results and discussion")
        cr = self.composer(f"step{st.number}:results", v)
        self.blocks += self._results(cr, st)
        self.sub(c, "Experimental details of the batches")
        self.blocks += [batch_notes(self.prog, self.series, self.seed, st, k, lot)
                        for k, (lot, *_rest) in enumerate(batches(st, v, self.prog), start=1)]
        if v > self.series.step_from[st.number]:
            self._safety(self.composer(f"safety{st.number}", 1), st)
        if v >= (8 if self.series.key == "A" else 5):
            self._cpp(self.composer(f"cpp{st.number}", content_v), st, state)
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
        lot, scale, y, _p, _ = rows[-1]
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
            lead = c.pick(("In version {v} of {r} the step was changed: {d}.", "Since version {p} of {r}, the {d}."))
            out.append(c.para(c.sent(lead.format(v=v, p=v - 1, r=self.series.report_id, d=ch.description)),
                              *self._change_sentences(c, st, state)))
        if not news:
            out.append(c.para(c.sent(c.pick((
                f"No change to the conditions of {self.prog.drug} Step {st.number} was made since the previous version.",
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

    def _safety(self, c: Composer, st: Step) -> None:
        self.sub(c, "Process safety")
        rng = stable_rng(self.prog.rng_seed, "safety", st.number)
        onset = rng.randrange(150, 260)
        dtad = rng.randrange(18, 95)
        temp = st.state(self.version).condition("temperature")
        assert temp
        gas = {2: "carbon dioxide released on activation with CDI", 5: "isobutylene and carbon dioxide from the Boc "
               "cleavage", 3: "no permanent gas", 4: "no permanent gas", 1: "no permanent gas", 6: "no permanent gas"}
        self.blocks.append(c.para(
            c.sent(f"The {self.prog.drug} Step {st.number} reaction mixture showed a decomposition onset at {onset} °C "
                   f"by {c.ref('dsc')} (closed high-pressure crucible, 4 K/min)."),
            c.sent(f"The adiabatic temperature rise of the reaction was estimated at {dtad} K, giving a maximum "
                   f"temperature of the synthesis reaction of {temp.value + dtad:g} °C.",
                   FactSpec("adiabatic temperature rise", st.id, f"{dtad} K")),
            c.sent(f"Gas evolution: {gas[st.number]}; the vent line of the reactor is sized accordingly.")))
        self.blocks.append(c.para(c.sent(c.pick((
            (f"With a margin of {onset - temp.value - dtad:g} K between the worst-case temperature and the onset, "
            f"Step {st.number} is classified as criticality class 1 for {self.prog.drug}."),
            (f"The {onset - temp.value - dtad:g} K margin to the decomposition onset places {self.prog.drug} "
            f"Step {st.number} in criticality class 1; no further calorimetry is required."),
        )))))

    def _cpp(self, c: Composer, st: Step, state: StepState) -> None:
        self.sub(c, "Critical process parameters")
        rows = []
        sents = [c.sent(f"Proven acceptable ranges for {self.prog.drug} Step {st.number} were derived from the "
                        f"batches and the robustness experiments.")]
        for cond in state.conditions:
            if cond.kind in ("yield", "purity"):
                continue
            width = {"temperature": 5, "time": 1, "equivalents": 0.1, "volume": 2, "pH": 0.5, "pressure": 20,
                     "catalyst loading": 0.25}[cond.kind]
            lo, hi = cond.value - width, cond.value + width
            par = f"{lo:g} to {hi:g} {cond.unit}".strip() if cond.kind != "pH" else f"pH {lo:g} to {hi:g}"
            critical = "CPP" if cond.kind in ("temperature", "equivalents", "pH") else "non-critical"
            what = cond.kind + (f" ({self.prog.entity(cond.about).name})" if cond.about else "")
            fact = FactSpec("proven acceptable range", f"{st.id}/{cond.kind}" + (f"/{cond.about}" if cond.about else ""),
                            par)
            if st.prose_only:
                sents.append(c.sent(f"The {what} is {critical} with a proven acceptable range of {par}.", fact))
            else:
                rows.append([c.sent(what), c.sent(cond.verbatim), c.sent(par, fact), c.sent(critical)])
        self.blocks.append(c.para(*sents))
        if rows:
            cap = c.sent(f"Table {self.next_table()}: Process parameters of {self.prog.drug} Step {st.number}.")
            self.blocks.append(Table(cap, ["Parameter", "Set point", "Proven acceptable range", "Classification"],
                                     rows))

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
        cap = c.sent(f"Table {self.next_table()}: Solvent screen for {self.prog.drug} Step {st.number}.")
        self.blocks.append(Table(cap, ["Solvent", "Conversion (%)", "Amide impurity (area%)", "Phase split"], rows))
        self.blocks.append(c.para(c.sent(
            f"{c.ref('2-methf')} combined full conversion with a clean phase split and was carried forward for "
            f"{self.prog.drug}.")))

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
            f"A two-level full factorial design with a centre point was run for {self.prog.drug} "
            f"{c.ref(st.id, f'Step {st.number}')} to map the effect of {factors[0].split(' (')[0].lower()}, "
            f"{factors[1].split(' (')[0]} and {factors[2].split(' (')[0].lower()} on {response.split(' (')[0].lower()}.")))
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
        cap = c.sent(f"Table {self.next_table()}: Design of experiments for {self.prog.drug} Step {st.number}.")
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
        cap = c.sent(f"Table {self.next_table()}: Effect of water on {self.prog.drug} Step {st.number}.")
        self.blocks.append(Table(cap, ["Water (ppm)", "Conversion (%)", "Amide impurity (area%)"], rows))

    def _cstr(self, c: Composer, st: Step) -> None:
        self.sub(c, "Continuous quench")
        self.blocks.append(c.para(
            c.sent(f"To control the exotherm of the {c.ref('kotbu')} quench in {self.prog.drug} Step {st.number}, "
                   f"the reaction stream and aqueous "
                   f"{c.ref('ammonium-chloride')} were pumped into a {c.ref('cstr')} with a residence time of 8 min."),
            c.sent("The reactor was stirred vigorously (>500 rpm) and a pH probe was used to monitor the pH of the "
                   "mixture, which remained around 9.", FactSpec("pH", st.id, "pH 9")),
            c.sent(f"The quenched stream was collected in {c.ref('r-201')} for phase separation.")))

    def _scavenging(self, c: Composer, st: Step) -> None:
        self.sub(c, "Palladium removal")
        self.blocks.append(c.para(c.sent(
            f"Residual palladium after the {self.prog.drug} coupling was {c.pick(('410', '380', '455'))} ppm; three "
            f"treatments were "
            f"compared by {c.ref('icp-ms')}.")))
        rows = []
        for e, after in (("siliamets-thiol", "8"), ("activated-carbon", "46"), ("quadrasil", "12")):
            rows.append([c.sent(c.ref(e)), c.sent("10 wt%"),
                         c.sent(after, FactSpec("residual palladium", f"{st.id}/{e}", f"{after} ppm"))])
        cap = c.sent(f"Table {self.next_table()}: Palladium scavenger comparison for {self.prog.drug} Step {st.number}.")
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
        cap = c.sent(f"Table {self.next_table()}: Crystallisation screen for {self.prog.drug} Step {st.number}.")
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
        cap = c.sent(f"Table {self.next_table()}: Impurity profile (HPLC area%) after each {self.prog.drug} step.")
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
        sents = [c.sent(f"The conclusions of {self.series.report_id} version {v} for the {self.prog.drug} route "
                        f"are as follows.")]
        for st in self._live_steps():
            state = st.state(v)
            solvent = next(e for e, r in state.inputs if r == "solvent")
            ready = v >= len(self.series.dates) - 3
            verdict = "ready for the pilot campaign" if ready else "subject to further optimisation"
            sents.append(c.sent(
                f"Step {st.number} in {c.ref(solvent)} is {verdict}.",
                FactSpec("conclusion", st.id, f"{self.prog.entity(solvent).name}; {verdict}")))
        self.blocks.append(c.para(*sents))
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


_NOTES = (
    "A short temperature excursion to {exc} °C during the addition had no impact on quality.",
    "The filtration took {filt} min for a cake height of {cake} cm.",
    "The mother liquor contained {ml:.1f}% of the product, in line with the solubility data.",
    "Phase separation took {filt} min with a sharp interface and no rag layer.",
    "The wet cake was dried for {dry} h to a loss on drying of {lod:.2f}%.",
    "Sampling for the in-process control was done through the bottom valve after {dry} h.",
    "The batch was held overnight at 20 °C before work-up without any change in the impurity profile.",
)


def batch_notes(prog: Programme, series: Series, seed: int, st: Step, k: int, lot: str) -> Paragraph:
    """The experimental paragraph of one batch; seeded per batch so it reads the same in every version."""
    rng = stable_rng(seed, prog.index, "batch", st.id, k)
    c = Composer(prog, f"{seed}:{prog.index}:{series.key}", rng)
    state = st.state(max(1, k - 1))
    _, scale, y, p, started = batches(st, max(k - 1, 1), prog)[k - 1]
    main = next(e for e, r in state.inputs if r in ("starting material", "intermediate"))
    t1 = rng.choice((1, 2, 3))
    notes = rng.sample([n for n in _NOTES if "Phase" not in n or "phase-separation" in state.unit_operations], 2)
    values = {"exc": rng.randrange(3, 9) + (state.condition("temperature").value or 0),  # type: ignore[union-attr]
                  "filt": rng.randrange(25, 140), "cake": rng.randrange(8, 30), "ml": rng.uniform(1.5, 6.0),
                  "dry": rng.randrange(6, 20), "lod": rng.uniform(0.05, 0.4)}
    return c.para(
        c.sent(f"Lot {lot} ({scale}) was started on {started} in {the(c.ref(state.equipment[0]))}."),
        c.sent(f"The input {c.ref(main)} had a water content of {rng.uniform(0.02, 0.3):.2f}% by {c.ref('kf')} "
               f"and an assay of {rng.uniform(97.5, 99.8):.1f}%."),
        c.sent(f"Conversion by {c.ref('hplc')} after {t1} h was {rng.uniform(88, 99.5):.1f}%, and the reaction was "
               f"judged complete after {t1 + rng.choice((1, 2))} h."),
        *[c.sent(n.format(**values)) for n in notes],
        c.sent(f"The isolated {c.ref(state.outputs[0])} had an HPLC purity of {p:.2f} area% at {y:.1f}% yield."),
    )


def report_documents(prog: Programme, seed: int) -> list[Document]:
    docs = []
    for series in series_of(prog, seed):
        for v in range(1, len(series.dates) + 1):
            docs.append(ReportWriter(prog, series, v, seed).build())
    return docs

