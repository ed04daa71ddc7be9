"""Independent documents of a programme: solvent appendix, analytical method, impurity report,
campaign summary (multi-column page), a German transfer report and a scanned batch-record page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.demo.chemistry import SOLVENT_PROPERTIES, Programme
from kb.demo.model import (
    Columns,
    Composer,
    Document,
    FactSpec,
    Heading,
    PageBreak,
    Paragraph,
    Table,
    stable_rng,
)
from kb.demo.steps import cond_fact
from kb.demo.timeline import batches, series_of


def _doc(prog: Programme, kind: str, fmt: str, title: str, rid: str, date: str, blocks: list,
         language: str = "en") -> Document:
    suffix = "_scan" if kind == "scan" else ""
    return Document(f"{rid}_v1_{date}{suffix}.{fmt}", kind, fmt, prog.drug, title, rid, 1, date, language,
                    blocks=blocks)


def _composer(prog: Programme, seed: int, key: str, language: str = "en") -> Composer:
    return Composer(prog, f"{seed}:{prog.index}:{key}", stable_rng(seed, prog.index, key), language=language)


def solvent_appendix(prog: Programme, seed: int, date: str) -> Document:
    c = _composer(prog, seed, "appendix")
    rid = f"AP-{date[:4]}-{3 + prog.index:03d}"
    blocks: list = [
        Heading(0, c.sent(f"Appendix: solvent properties for the {prog.drug} route")),
        Paragraph([c.sent(f"Appendix {rid}, Version 1, {date}")]),
        PageBreak(), c.heading(1, "1 Purpose"),
        Paragraph([c.sent(f"This appendix collects the physical and regulatory properties of the solvents "
                          f"considered for the {prog.drug} route."),
                   c.sent("Values are taken from the ICH Q3C(R8) guideline and standard handbooks.")]),
        c.heading(1, "2 Solvent property table"),
    ]
    rows = []
    for sid, (ich, bp, density, misc, pde) in SOLVENT_PROPERTIES.items():
        ent = prog.entity(sid)
        synonyms = [f for f in ent.forms[1:] if f not in ("Wasser", "Acetonitril", "Methyl-tert-butylether")]
        syn_cell = ", ".join(c.ref(sid, f) for f in synonyms) if synonyms else "-"
        syn = c.sent(syn_cell)
        name = c.sent(c.ref(sid, ent.name))
        rows.append([name, syn,
                     c.sent(str(bp), FactSpec("boiling point", sid, f"{bp} °C")),
                     c.sent(f"{density:.3f}", FactSpec("density", sid, f"{density:.3f} g/mL")),
                     c.sent(misc), c.sent(ich, FactSpec("ICH class", sid, ich)),
                     c.sent(pde, FactSpec("PDE", sid, f"{pde} mg/day") if pde != "-" else FactSpec("PDE", sid, "-"))])
    blocks.append(Table(c.sent("Table 1: Properties of candidate solvents."),
                        ["Solvent", "Synonyms", "bp (°C)", "Density (g/mL)", "Water miscibility", "ICH Q3C",
                         "PDE (mg/day)"], rows))
    blocks += [
        PageBreak(), c.heading(1, "3 Notes on selection"),
        Paragraph([c.sent(f"{c.ref('2-methf', '2-MeTHF')} and {c.ref('thf', 'THF')} are different solvents: "
                          f"{c.ref('2-methf', '2-MeTHF')} separates from water while {c.ref('thf', 'THF')} is "
                          f"miscible with it."),
                   c.sent(f"{c.ref('acetonitrile', 'MeCN')} is a Class 2 solvent and its residue in {prog.drug} "
                          f"hydrochloride is controlled by {c.ref('gc')}.")]),
    ]
    return _doc(prog, "appendix", "docx", f"Appendix: solvent properties for the {prog.drug} route", rid, date,
                blocks)


def analytical_method(prog: Programme, seed: int, date: str) -> Document:
    c = _composer(prog, seed, "method")
    code = f"AM-{117 + 7 * prog.index:04d}"
    salt = prog.pid("hcl-salt")
    rrts = ((prog.pid("imp-a"), "0.86"), (prog.pid("imp-b"), "0.42"), (prog.pid("imp-c"), "1.37"),
            (prog.pid("imp-d"), "1.12"))
    blocks: list = [
        Heading(0, c.sent(f"Analytical procedure {code}: related substances and assay of {prog.drug} hydrochloride")),
        Paragraph([c.sent(f"Method {code}, Version 1, {date}")]),
        c.heading(1, "1 Scope"),
        Paragraph([c.sent(f"This procedure describes the determination of assay and related substances of "
                          f"{c.ref(salt)} by reversed-phase {c.ref('hplc')}.")]),
        c.heading(1, "2 Chromatographic conditions"),
        Paragraph([c.sent(f"Column for method {code}: Waters XBridge C18, 150 x 4.6 mm, 3.5 µm, at 30 °C.",
                          FactSpec("HPLC column", code, "Waters XBridge C18, 150 x 4.6 mm, 3.5 µm")),
                   c.sent(f"Mobile phase A: 0.1% {c.ref('tfa')} in {c.ref('water')}; mobile phase B: 0.1% "
                          f"{c.ref('tfa')} in {c.ref('acetonitrile', 'ACN')}."),
                   c.sent("Flow rate 1.0 mL/min, detection UV 254 nm, injection volume 5 µL.",
                          FactSpec("flow rate", code, "1.0 mL/min"))]),
        Table(c.sent("Table 1: Gradient programme."), ["Time (min)", "% B"],
              [[c.sent(t), c.sent(b)] for t, b in (("0", "10"), ("20", "90"), ("25", "90"), ("25.1", "10"),
                                                    ("30", "10"))]),
        c.heading(1, "3 Relative retention times"),
        Table(c.sent("Table 2: Relative retention times of specified impurities."), ["Impurity", "RRT", "Limit"],
              [[c.sent(c.ref(i)), c.sent(rrt, FactSpec("RRT", i, rrt)), c.sent("0.15%")] for i, rrt in rrts]),
        PageBreak(), c.heading(1, "4 Residual solvents and water"),
        Paragraph([c.sent(f"Residual {c.ref('2-methf', '2-methyltetrahydrofuran')}, {c.ref('acetonitrile', 'ACN')}, "
                          f"{c.ref('isopropanol')} and {c.ref('mtbe')} are determined by {c.ref('gc', 'headspace GC')} "
                          f"on a DB-624 column for {prog.drug} hydrochloride."),
                   c.sent(f"Water is determined by {c.ref('kf', 'Karl Fischer titration')} (coulometric), limit "
                          f"NMT 0.5% w/w.", FactSpec("water limit", salt, "NMT 0.5% w/w"))]),
        c.heading(1, "5 Thermal analysis"),
        Paragraph([c.sent(f"The melting behaviour of {c.ref(salt)} is recorded by {c.ref('dsc')} from 25 to 300 °C "
                          f"at 10 K/min in crimped aluminium pans.")]),
        c.heading(1, "6 System suitability"),
        Paragraph([c.sent("Resolution between the main peak and the nearest impurity is not less than 2.0.",
                          FactSpec("system suitability", code, "resolution NLT 2.0")),
                   c.sent(f"For method {code}, the relative standard deviation of six replicate injections is not "
                          f"more than 1.0%.")]),
    ]
    return _doc(prog, "analytical_method", "pdf", f"Analytical procedure {code}", code, date, blocks)


def impurity_report(prog: Programme, seed: int, date: str) -> Document:
    c = _composer(prog, seed, "impurity")
    rid = f"IR-{date[:4]}-{11 + prog.index:03d}"
    rng = stable_rng(prog.rng_seed, "spiking")
    blocks: list = [
        Heading(0, c.sent(f"Impurity fate and purge report for {prog.drug}")),
        Paragraph([c.sent(f"Report {rid}, Version 1, {date}")]),
        c.heading(1, "1 Spiking and purge studies"),
        Paragraph([c.sent(f"Each {prog.drug} impurity was spiked at 1.0 area% into the input of the step following "
                          f"its formation and tracked by {c.ref('hplc')} through isolation.")]),
    ]
    rows = []
    for key in ("imp-a", "imp-b", "imp-c", "imp-d"):
        purge = round(rng.uniform(8, 60), 0)
        rows.append([c.sent(c.ref(prog.pid(key))), c.sent("1.0"),
                     c.sent(f"{1 / purge:.3f}"),
                     c.sent(f"{purge:g}", FactSpec("purge factor", prog.pid(key), f"{purge:g}"))])
    blocks.append(Table(c.sent("Table 1: Spiking experiments and purge factors."),
                        ["Impurity", "Spiked (area%)", "Found (area%)", "Purge factor"], rows))
    blocks.append(c.heading(1, "2 Conclusion"))
    blocks.append(Paragraph([c.sent(f"All four impurities are purged below 0.05 area% in {c.ref(prog.pid('hcl-salt'))}; "
                                    f"no additional control point is required.")]))
    return _doc(prog, "impurity_report", "pdf", f"Impurity fate and purge report for {prog.drug}", rid, date, blocks)


def campaign_summary(prog: Programme, seed: int, date: str) -> tuple[Document, dict[str, Any]]:
    c = _composer(prog, seed, "campaign")
    rid = f"CS-{date[:4]}-{21 + prog.index:03d}"
    s6 = prog.step(6)
    st = s6.state(99)
    temp = st.condition("temperature")
    assert temp
    lot = batches(s6, 10, prog)[-1][0]
    left = [
        Paragraph([c.sent(f"The first pilot campaign of {prog.drug} ran all six steps in the {c.ref('r-201')} and "
                          f"the {c.ref('r-050')}."),
                   c.sent(f"The campaign produced lot {lot} of {c.ref(prog.pid('hcl-salt'))} for toxicology studies.")]),
        Paragraph([c.sent(f"Step 6 used {c.ref('acetonitrile', 'MeCN')} with {c.ref('mtbe')} as antisolvent and a "
                          f"final temperature of {temp.verbatim}.", cond_fact(s6, temp))]),
        Paragraph([c.sent(f"Steps 1 and 2 were telescoped for the first time: the solution of "
                          f"{c.ref(prog.pid('oxime'))} was dried by {c.ref('azeotropic-drying')} and used directly "
                          f"in the {c.ref(prog.pid('s2'), 'nitrile formation')}."),
                   c.sent(f"No isolation of {c.ref(prog.pid('oxime'))} was needed, which saved four days of "
                          f"plant time.")]),
    ]
    right = [
        Paragraph([c.sent(f"The continuous quench of {prog.drug} Step 3 in the {c.ref('cstr')} removed the exotherm "
                          f"that limited the batch size."),
                   c.sent(f"Phase separations in {c.ref('2-methf')} were complete within 20 min.")]),
        Paragraph([c.sent(f"Residual palladium in {c.ref(prog.pid('coupled'))} was below 10 ppm after the "
                          f"{c.ref('siliamets-thiol')} treatment.")]),
        Paragraph([c.sent(f"The final {c.ref('filtration')} in the {c.ref('fd-301')} took 3 h per load, against "
                          f"9 h on the {c.ref('nutsche')} used in the laboratory campaign of {prog.drug}.")]),
    ]
    sidebar = [
        Paragraph([c.sent(f"Key numbers: six steps, overall yield about 42%, lot {lot} released on {date}.",
                          FactSpec("overall yield", prog.drug, "about 42%"))]),
        Paragraph([c.sent(f"Open actions for {prog.drug}: transfer of Step 6 to the contract manufacturer and "
                          f"validation of method AM-{117 + 7 * prog.index:04d} for release testing.")]),
        Paragraph([c.sent(f"No safety incidents; one deviation (late IPC sample on lot {lot}) closed without "
                          f"impact.")]),
    ]
    title = c.sent(f"Pilot campaign summary for {prog.drug}")
    blocks: list = [
        Columns(title, [left, right], sidebar),
        PageBreak(), c.heading(1, "Campaign lots"),
        Table(c.sent("Table 1: Lots produced in the campaign."), ["Step", "Lot", "Yield"],
              [[c.sent(f"S{s.number}"), c.sent(batches(s, 10, prog)[-1][0]),
                c.sent(f"{batches(s, 10, prog)[-1][2]:.1f}%")] for s in prog.steps]),
    ]
    doc = _doc(prog, "campaign_summary", "pdf", f"Pilot campaign summary for {prog.drug}", rid, date, blocks)
    order = [title.text, *[p.text for p in left], *[p.text for p in right], *[p.text for p in sidebar]]
    return doc, {"document": doc.file, "page": 1, "blocks": order}


def german_report(prog: Programme, seed: int, date: str) -> Document:
    c = _composer(prog, seed, "german", language="de")
    rid = f"TT-{date[:4]}-{5 + prog.index:03d}"
    s6 = prog.step(6)
    st = s6.state(99)
    temp = st.condition("temperature")
    assert temp
    salt = prog.pid("hcl-salt")
    blocks: list = [
        Heading(0, c.sent(f"Technologietransfer-Bericht: Stufe 6 von {prog.drug}")),
        Paragraph([c.sent(f"Bericht {rid}, Version 1, {date}")]),
        c.heading(1, "1 Herstellung beim Lohnhersteller"),
        Paragraph([
            c.sent(f"Die freie Base wurde in {c.ref('acetonitrile', 'Acetonitril')} gelöst und bei 50 °C mit "
                   f"{c.ref('hydrochloric-acid', 'Salzsäure')} versetzt."),
            c.sent(f"Nach Zugabe von {c.ref('mtbe', 'Methyl-tert-butylether')} wurde die Suspension auf "
                   f"{temp.verbatim} abgekühlt.", cond_fact(s6, temp)),
            c.sent(f"Die {c.ref('crystallisation', 'Kristallisation')} lieferte {c.ref(salt, prog.entity(salt).name)} "
                   f"in Form A."),
        ]),
        c.heading(1, "2 Isolierung"),
        Paragraph([
            c.sent(f"Die {c.ref('filtration', 'Filtration')} von {prog.drug} erfolgte im {c.ref('fd-301', 'FD-301')}; "
                   f"der Filterkuchen wurde mit kaltem {c.ref('mtbe', 'MTBE')} gewaschen."),
            c.sent(f"Die {c.ref('vacuum-drying', 'Vakuumtrocknung')} bei 40 °C und 50 mbar dauerte 14 h."),
            c.sent(f"Der Wassergehalt nach {c.ref('kf', 'KF')} betrug 0,11 %.", FactSpec("water content (CMO)", salt,
                                                                                      "0,11 %")),
        ]),
    ]
    return _doc(prog, "german_report", "pdf", f"Technologietransfer-Bericht: Stufe 6 von {prog.drug}", rid, date,
                blocks, language="de")


def scanned_record(prog: Programme, seed: int, date: str) -> tuple[Document, str]:
    c = _composer(prog, seed, "scan")
    rid = f"BR-{date[:4]}-{31 + prog.index:03d}"
    s6 = prog.step(6)
    lot = batches(s6, 10, prog)[-2][0]
    st = s6.state(99)
    temp = st.condition("temperature")
    assert temp
    rng = stable_rng(seed, prog.index, "scan")
    charge = round(rng.uniform(5.8, 6.4), 2)
    blocks: list = [
        Heading(1, c.sent(f"Batch record excerpt: Step 6, lot {lot}")),
        Paragraph([c.sent(f"Record {rid}, Version 1, {date}")]),
        Paragraph([c.sent(f"Charged {charge:.2f} kg of {c.ref(prog.pid('free-base'))} to {c.ref('r-050')}.")]),
        Paragraph([c.sent(f"Added {c.ref('acetonitrile', 'CH3CN')} 15 vol and heated to 50 °C until dissolved.")]),
        Paragraph([c.sent(f"Dosed {c.ref('hydrochloric-acid', 'conc. HCl')} 1.05 equiv over 40 min, then seeded "
                          f"with 1 wt% Form A.")]),
        Paragraph([c.sent(f"Added {c.ref('mtbe', 'MTBE')} 10 vol over 2 h and cooled to {temp.verbatim}.",
                          cond_fact(s6, temp))]),
        Paragraph([c.sent(f"IPC by {c.ref('hplc', 'HPLC')} after 2 h at {temp.verbatim}: free base below 0.5 area%, "
                          f"mother liquor loss 3.1%.")]),
        Paragraph([c.sent(f"Filtered on {c.ref('fd-301')} and dried at 40 °C under 50 mbar for 14 h.")]),
        Paragraph([c.sent(f"Water content by {c.ref('kf', 'KF')} 0.14% w/w; residual {c.ref('acetonitrile', 'MeCN')} "
                          f"by {c.ref('gc', 'GC')} 230 ppm.")]),
        Paragraph([c.sent(f"Output: {charge * 1.05:.2f} kg of {c.ref(prog.pid('hcl-salt'))}, white crystalline "
                          f"solid, Form A by {c.ref('xrpd', 'XRPD')}.")]),
        Paragraph([c.sent("Operator signature and date checked by QA. Deviation: none.")]),
    ]
    doc = _doc(prog, "scan", "pdf", f"Batch record excerpt {rid}", rid, date, blocks)
    text = "\n".join(b.text.text if isinstance(b, Heading) else b.text for b in blocks)
    return doc, text


def standalone_documents(prog: Programme, seed: int) -> tuple[list[Document], dict[str, list[Any]]]:
    a, b = series_of(prog, seed)

    def after(series_dates: tuple[str, ...], version: int, days: int) -> str:
        return (dt.date.fromisoformat(series_dates[version - 1]) + dt.timedelta(days=days)).isoformat()

    appendix = solvent_appendix(prog, seed, after(a.dates, 4, 3))
    method = analytical_method(prog, seed, after(b.dates, 2, 12))
    impurity = impurity_report(prog, seed, after(b.dates, 7, 5))
    campaign, order = campaign_summary(prog, seed, after(b.dates, 10, 14))
    german = german_report(prog, seed, after(b.dates, 9, 20))
    scan, scan_text = scanned_record(prog, seed, after(b.dates, 8, 2))
    extras = {
        "scans": [{"document": scan.file, "page": 1, "text": scan_text}],
        "german": [{"document": german.file, "section": "*", "page": 1}],
        "reading_order": [order],
    }
    return [appendix, method, impurity, campaign, german, scan], extras

