"""Prose and tables about one route step, written from its modelled state.

Every sentence that states a condition, yield or purity carries the matching fact, and every entity
named goes through the Composer, so ground truth follows from writing the text.
"""

from __future__ import annotations

from kb.demo.chemistry import Condition, Step, StepState
from kb.demo.model import Composer, FactSpec, Paragraph, Sentence, Table
from kb.demo.timeline import batches, scale_kg

BACKGROUND: dict[int, tuple[str, ...]] = {
    1: (
        ("Condensation of {main} with {nh2oh} is the entry point of the route and sets the quality of every "
        "downstream intermediate."),
        ("The oxime is formed from {main} and {nh2oh} under buffered conditions so that the acid-labile fluoride "
        "is not displaced prematurely."),
        ("Oxime formation from {main} was selected over the direct ammoxidation options because it runs in "
        "standard multipurpose equipment."),
    ),
    2: (
        "Dehydration of {main} to the nitrile proceeds through an activated O-acyl intermediate formed with {cdi}.",
        ("The nitrile is obtained from {main} by an activation-elimination sequence mediated by {cdi}, which avoids "
        "the corrosive reagents of the classical dehydrations."),
        ("Several dehydrating agents were considered for {main}; {cdi} gave the cleanest profile and a benign "
        "imidazole by-product that is removed in the aqueous washes."),
    ),
    3: (
        ("The seven-membered ring is closed by an SNAr reaction in which the alkoxide of {amine} displaces the "
        "2-fluoro substituent of {main}."),
        ("Cyclisation of {main} with {amine} relies on a strong alkoxide base; the exotherm on base addition is the "
        "main scale-up concern for this step."),
        ("In the SNAr step the fluoride of {main} is displaced intramolecularly after O-alkylation by {amine}, "
        "giving the protected oxazepine ring system."),
    ),
    4: (
        "The aryl bromide {main} is coupled with {partner} under palladium catalysis to install the 7-substituent.",
        ("A Suzuki-Miyaura coupling of {main} and {partner} was chosen because both partners are crystalline and "
        "the boron by-products are purged in the aqueous phase."),
        ("Cross-coupling of {main} with {partner} is the only step that uses a precious-metal catalyst, so residual "
        "palladium control is part of its design."),
    ),
    5: (
        ("Removal of the Boc group from {main} with {hcl} releases the secondary amine, which is isolated as its "
        "free base after basification."),
        ("The Boc group of {main} is cleaved with {hcl}; isobutylene and carbon dioxide are vented through the "
        "scrubber during the reaction."),
        ("Acidic deprotection of {main} with {hcl} was preferred to thermal deprotection because it runs below "
        "60 °C in the existing reactor train."),
    ),
    6: (
        ("The drug substance is isolated as its hydrochloride from {main} to obtain a crystalline, non-hygroscopic "
        "solid suitable for formulation."),
        ("Salt formation of {main} with {hcla} controls the solid form of the drug substance and provides the final "
        "purge point for process impurities."),
        ("The final step converts {main} into the hydrochloride salt under seeded, cooling-controlled conditions "
        "to deliver the desired polymorph."),
    ),
}

def the(equipment: str) -> str:
    """'the 50 L jacketed glass reactor' but plain tag numbers ('R-101')."""
    return equipment if equipment[:2] in ("R-", "FD", "CV") or equipment.isupper() else f"the {equipment}"


def cond_fact(step: Step, cond: Condition) -> FactSpec:
    subject = step.id + (f"/{cond.about}" if cond.about else "")
    return FactSpec(cond.kind, subject, cond.verbatim)


def main_input(state: StepState) -> str:
    return next(e for e, r in state.inputs if r in ("starting material", "intermediate"))


def roles(state: StepState, *wanted: str) -> list[str]:
    return [e for e, r in state.inputs if r in wanted]


def join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def background(c: Composer, step: Step, state: StepState) -> Paragraph:
    prog = c.programme
    template = c.pick(BACKGROUND[step.number])
    values = {
        "main": lambda: c.ref(main_input(state)),
        "nh2oh": lambda: c.ref("hydroxylamine-hcl"),
        "cdi": lambda: c.ref("cdi"),
        "amine": lambda: c.ref("boc-ethanolamine"),
        "partner": lambda: c.ref(prog.partner),
        "hcl": lambda: c.ref("hydrogen-chloride"),
        "hcla": lambda: c.ref("hydrochloric-acid"),
    }
    text = template
    for key, fn in values.items():
        if "{" + key + "}" in text:
            text = text.replace("{" + key + "}", fn())
    first = c.sent(text[0].upper() + text[1:])
    out = c.ref(state.outputs[0])
    second = c.sent(c.choose(
        lambda: f"The product of this step, {out}, is the input of Step {step.number + 1}." if step.number < 6
        else f"The product of this step, {out}, is the drug substance of programme {prog.drug}.",
        lambda: f"In programme {prog.drug}, step {step.number} delivers {out} for the next stage of the route.",
        lambda: f"Step {step.number} ({step.name}) is run in {the(c.ref(state.equipment[0]))} and delivers {out}.",
    ))
    return c.para(first, second)


def procedure(c: Composer, step: Step, state: StepState, version: int) -> list[Paragraph]:
    """The step's procedure in prose: charges, conditions, work-up, isolation, outcome."""
    idx = c.programme.index
    main = main_input(state)
    reactor = state.equipment[0]
    kg = scale_kg(step, version, idx)
    solvents = roles(state, "solvent")
    reaction_solvents = [s for s in solvents if state.condition("volume", s)] or solvents[:1]
    later_solvents = [s for s in solvents if s not in reaction_solvents]
    sents: list[Sentence] = []

    solv_txt = []
    facts = []
    for s in reaction_solvents:
        vol = state.condition("volume", s)
        if vol:
            solv_txt.append(f"{c.ref(s)} ({vol.verbatim})")
            facts.append(cond_fact(step, vol))
        else:
            solv_txt.append(c.ref(s))
    facts.append(FactSpec("solvent", step.id, c.programme.entity(reaction_solvents[0]).name))
    sents.append(c.sent(_charge(c, reactor, main, kg, join(solv_txt)), *facts))

    for e in roles(state, "reagent", "base", "catalyst"):
        if e == "siliamets-thiol":
            continue
        role = state.role_of(e)
        eq = state.condition("equivalents", e) or state.condition("catalyst loading", e)
        amount = f" ({eq.verbatim})" if eq else ""
        as_role = f" as {c.ref(f'role-{role}', role)}" if role in ("base", "catalyst") else ""
        verb = c.pick(("was added", "was charged", "was introduced"))
        how = c.pick(("portionwise over 30 min", "over 1 h", "in one portion", "as a solution over 45 min"))
        sents.append(c.sent(f"{c.ref(e)}{amount} {verb} {how}{as_role}.", *([cond_fact(step, eq)] if eq else [])))

    temp, time = state.condition("temperature"), state.condition("time")
    assert temp and time
    sents.append(c.sent(c.pick((
        f"The mixture was stirred at {temp.verbatim} for {time.verbatim}.",
        f"The reaction was held at {temp.verbatim} for {time.verbatim} with stirring at 180 rpm.",
        f"The batch was adjusted to {temp.verbatim} and aged for {time.verbatim}.",
    )), cond_fact(step, temp), cond_fact(step, time)))
    sents.append(c.sent(f"In-process control by {c.ref('hplc')} showed less than "
                        f"{c.pick(('0.5', '1.0', '0.8'))} area% of {c.ref(main)} remaining."))
    first = c.para(*sents)

    work: list[Sentence] = []
    for q in roles(state, "quench agent"):
        ph = state.condition("pH")
        cstr = "cstr" in state.equipment
        if cstr:
            work.append(c.sent(
                f"The reaction stream was quenched continuously with aqueous {c.ref(q)} in the {c.ref('cstr')}, "
                f"where the {c.ref('quench')} was monitored with a pH probe and remained around "
                f"{ph.verbatim if ph else 'pH 9'}.", *([cond_fact(step, ph)] if ph else [])))
        else:
            work.append(c.sent(f"The mixture was cooled to 20 °C and {c.ref('quench', 'quench')}ed with "
                               f"{c.ref(q)} ({c.pick(('3', '4', '5'))} vol) as {c.ref('role-quench-agent', 'quench agent')}."))
    ph = state.condition("pH")
    if ph and not roles(state, "quench agent"):
        work.append(c.sent(f"After the reaction the mixture was basified to {ph.verbatim} with aqueous "
                           f"{c.ref(roles(state, 'base')[0])}.", cond_fact(step, ph)))
    extra = [s for s in later_solvents if not (s == "water" and roles(state, "quench agent") == ["water"])]
    if extra:
        listed = join([f"{c.ref(s)} ({c.pick(('4', '5', '6', '8'))} vol)" for s in extra])
        work.append(c.sent(c.pick((f"{listed} {'were' if len(extra) > 1 else 'was'} added for the work-up.",
                                   f"The work-up used {listed}."))))
    for anti in roles(state, "antisolvent"):
        work.append(c.sent(f"After seeding with 1 wt% of Form A, {c.ref(anti)} ({c.pick(('8', '10', '12'))} vol) was "
                           f"added as {c.ref('role-antisolvent', 'antisolvent')} over 2 h."))
    if "siliamets-thiol" in dict(state.inputs):
        work.append(c.sent(f"The organic phase was treated with {c.ref('siliamets-thiol')} (10 wt%) at 50 °C "
                           f"for {c.ref('scavenging')}."))
    for op in state.unit_operations:
        if op in ("quench", "scavenging"):
            continue
        work.append(c.sent(_unit_op_sentence(c, op, state)))
    for eq in state.equipment[1:]:
        if eq == "cstr":
            continue
        work.append(c.sent(f"The solid was transferred to the {c.ref(eq)} for isolation."))
    pressure = state.condition("pressure")
    if pressure:
        work.append(c.sent(f"The wet cake was dried at 40 °C under {pressure.verbatim} to constant weight.",
                           cond_fact(step, pressure)))
    yld, pur = state.condition("yield"), state.condition("purity")
    assert yld and pur
    out = c.ref(state.outputs[0])
    work.append(c.sent(c.pick((
        f"{out} was obtained in {yld.verbatim} yield with an HPLC purity of {pur.verbatim}.",
        f"This gave {out} in {yld.verbatim} yield and {pur.verbatim} purity by HPLC.",
    )), cond_fact(step, yld), cond_fact(step, pur)))
    return [first, c.para(*work)]


def _charge(c: Composer, reactor: str, main: str, kg: float, solvents: str) -> str:
    r = the(c.ref(reactor))
    m = c.ref(main)
    return c.pick((
        f"{r[0].upper() + r[1:]} was charged with {m} ({kg:g} kg) and {solvents}.",
        f"{m} ({kg:g} kg) was charged to {r}, followed by {solvents}.",
        f"{solvents} and {m} ({kg:g} kg) were charged to {r} under nitrogen.",
    ))


def _unit_op_sentence(c: Composer, op: str, state: StepState) -> str:
    o = c.ref(op)
    return {
        "crystallisation": f"The product was isolated by {o} on cooling over {c.pick(('2', '3', '4'))} h.",
        "filtration": f"The suspension was collected by {o} and the cake washed with cold solvent.",
        "phase-separation": f"After {o} the aqueous layer was discarded.",
        "extraction": f"The product was recovered by {o} into the organic phase.",
        "distillation": f"The organic layer was concentrated by {o} to {c.pick(('4', '5', '6'))} vol.",
        "vacuum-drying": f"Final {o} removed residual solvents below the ICH limits.",
        "azeotropic-drying": f"Water was removed by {o} before the next step.",
    }[op]


def charge_table(c: Composer, step: Step, state: StepState, version: int, number: int) -> Table:
    kg = scale_kg(step, version, c.programme.index)
    rows = []
    for e, role in state.inputs:
        eq = state.condition("equivalents", e) or state.condition("catalyst loading", e)
        vol = state.condition("volume", e)
        amount = eq.verbatim if eq else vol.verbatim if vol else ("1.0 equiv" if role in ("starting material", "intermediate") else "-")
        facts = [cond_fact(step, eq)] if eq else [cond_fact(step, vol)] if vol else []
        rows.append([
            c.sent(c.ref(e)),
            c.sent(c.ref(f"role-{role.replace(' ', '-')}", role)),
            c.sent(f"{kg:g} kg" if role in ("starting material", "intermediate") else "as required"),
            c.sent(amount, *facts),
        ])
    cap = c.sent(f"Table {number}: Charges for {c.programme.drug} Step {step.number} ({step.name}), version {version}.")
    return Table(cap, ["Material", "Role", "Quantity", "Equivalents / volumes"], rows)


def batch_table(c: Composer, step: Step, version: int, number: int) -> Table:
    rows = []
    for lot, scale, y, p, _ in batches(step, version, c.programme):
        rows.append([
            c.sent(lot), c.sent(scale),
            c.sent(f"{y:.1f}%", FactSpec("batch yield", lot, f"{y:.1f}%")),
            c.sent(f"{p:.2f}", FactSpec("batch purity", lot, f"{p:.2f} area%")),
        ])
    cap = c.sent(f"Table {number}: Batches of {c.programme.drug} {c.ref(step.id, f'Step {step.number}')} reported to date.")
    return Table(cap, ["Lot", "Scale", "Yield", "HPLC purity (area%)"], rows)
