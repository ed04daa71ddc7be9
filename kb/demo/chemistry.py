"""The fictional programme's chemistry: entities, the six-step route and how it evolves.

Everything the documents say about the route is derived from this model, so the ground truth and
the text cannot drift apart. A programme is built from its index (0 for the scale-1 programme),
which varies codes, compound numbers, substituents and numbers so that larger scales add new,
non-repeating material.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

ENTITY_TYPES = (
    "chemical_substance",
    "planned_process",
    "unit_operation",
    "equipment",
    "role",
    "impurity",
    "analytical_method",
)
ROLES = (
    "solvent",
    "reagent",
    "catalyst",
    "base",
    "starting material",
    "intermediate",
    "product",
    "antisolvent",
    "quench agent",
)


@dataclass(frozen=True)
class Entity:
    """A canonical thing of one type with every surface form the documents may use for it."""

    id: str
    type: str
    name: str
    forms: tuple[str, ...]
    in_lexicon: bool = True


@dataclass(frozen=True)
class Condition:
    """One process condition; `about` names the substance an equivalents or volume figure refers to."""

    kind: str
    value: float
    unit: str
    about: str = ""

    @property
    def verbatim(self) -> str:
        return format_value(self.kind, self.value, self.unit)


def format_value(kind: str, value: float, unit: str) -> str:
    """How a condition is written in the documents (unit spacing as a chemist writes it)."""
    number = f"{value:.1f}" if kind in ("purity", "yield") else f"{value:g}"
    if kind == "pH":
        return f"pH {number}"
    if unit == "%":
        return f"{number}%"
    return f"{number} {unit}"


@dataclass(frozen=True)
class StepState:
    """What one step looks like as described at one version of its report."""

    step: str
    inputs: tuple[tuple[str, str], ...]
    outputs: tuple[str, ...]
    equipment: tuple[str, ...]
    unit_operations: tuple[str, ...]
    conditions: tuple[Condition, ...]

    def condition(self, kind: str, about: str = "") -> Condition | None:
        for c in self.conditions:
            if c.kind == kind and (not about or c.about == about):
                return c
        return None

    def role_of(self, entity: str) -> str | None:
        return next((r for e, r in self.inputs if e == entity), None)

    def with_condition(self, kind: str, value: float, about: str = "") -> StepState:
        conds = tuple(replace(c, value=value) if c.kind == kind and c.about == about else c for c in self.conditions)
        return replace(self, conditions=conds)


@dataclass(frozen=True)
class Change:
    """A modification that takes effect from `version` of the step's report series."""

    version: int
    description: str
    apply: tuple[tuple[str, object], ...]


@dataclass
class Step:
    """A planned process of the route, its base state and its changes over report versions."""

    id: str
    number: int
    name: str
    series: str
    base: StepState
    changes: list[Change] = field(default_factory=list)
    prose_only: bool = False

    def state(self, version: int) -> StepState:
        s = self.base
        for ch in self.changes:
            if ch.version <= version:
                for op, arg in ch.apply:
                    s = _apply(s, op, arg)
        return s


def _apply(state: StepState, op: str, arg: object) -> StepState:
    if op == "condition":
        kind, value, about = arg  # type: ignore[misc]
        return state.with_condition(kind, value, about)
    if op == "swap_input":
        old, new = arg  # type: ignore[misc]
        inputs = tuple((new if e == old else e, r) for e, r in state.inputs)
        conds = tuple(replace(c, about=new) if c.about == old else c for c in state.conditions)
        return replace(state, inputs=inputs, conditions=conds)
    if op == "add_equipment":
        return replace(state, equipment=state.equipment + (str(arg),))
    if op == "add_input":
        return replace(state, inputs=state.inputs + (arg,))  # type: ignore[operator]
    if op == "add_condition":
        return replace(state, conditions=state.conditions + (arg,))  # type: ignore[operator]
    raise ValueError(op)


def _e(id_: str, type_: str, name: str, *forms: str, lex: bool = True) -> Entity:
    return Entity(id_, type_, name, (name, *forms), lex)


COMMON: tuple[Entity, ...] = (
    _e("water", "chemical_substance", "water", "H2O", "DI water", "purified water", "Wasser"),
    _e("ethanol", "chemical_substance", "ethanol", "EtOH"),
    _e("hydroxylamine-hcl", "chemical_substance", "hydroxylamine hydrochloride", "NH2OH·HCl", "NH2OH.HCl"),
    _e("sodium-acetate", "chemical_substance", "sodium acetate", "NaOAc"),
    _e("cdi", "chemical_substance", "1,1'-carbonyldiimidazole", "CDI", "carbonyldiimidazole"),
    _e("2-methf", "chemical_substance", "2-methyltetrahydrofuran", "2-MeTHF", "MeTHF", "2-Me-THF"),
    _e("thf", "chemical_substance", "tetrahydrofuran", "THF"),
    _e("boc-ethanolamine", "chemical_substance", "N-Boc-ethanolamine", "tert-butyl (2-hydroxyethyl)carbamate"),
    _e("kotbu", "chemical_substance", "potassium tert-butoxide", "KOtBu", "t-BuOK"),
    _e("ammonium-chloride", "chemical_substance", "ammonium chloride", "NH4Cl"),
    _e("pd-dppf", "chemical_substance", "Pd(dppf)Cl2", "PdCl2(dppf)",
       "[1,1'-bis(diphenylphosphino)ferrocene]dichloropalladium(II)"),
    _e("k3po4", "chemical_substance", "potassium phosphate", "K3PO4", "tripotassium phosphate"),
    _e("toluene", "chemical_substance", "toluene", "PhMe"),
    _e("siliamets-thiol", "chemical_substance", "SiliaMetS Thiol", "thiol silica scavenger", lex=False),
    _e("hydrogen-chloride", "chemical_substance", "hydrogen chloride", "HCl"),
    _e("isopropanol", "chemical_substance", "isopropanol", "IPA", "2-propanol", "isopropyl alcohol"),
    _e("sodium-hydroxide", "chemical_substance", "sodium hydroxide", "NaOH"),
    _e("hydrochloric-acid", "chemical_substance", "hydrochloric acid", "aq. HCl", "conc. HCl", "Salzsäure"),
    _e("acetonitrile", "chemical_substance", "acetonitrile", "MeCN", "ACN", "CH3CN", "Acetonitril"),
    _e("mtbe", "chemical_substance", "methyl tert-butyl ether", "MTBE", "tert-butyl methyl ether", "Methyl-tert-butylether"),
    _e("heptane", "chemical_substance", "n-heptane", "heptane"),
    _e("ethyl-acetate", "chemical_substance", "ethyl acetate", "EtOAc"),
    _e("acetone", "chemical_substance", "acetone"),
    _e("methanol", "chemical_substance", "methanol", "MeOH"),
    _e("dcm", "chemical_substance", "dichloromethane", "DCM", "methylene chloride"),
    _e("cpme", "chemical_substance", "cyclopentyl methyl ether", "CPME"),
    _e("ipac", "chemical_substance", "isopropyl acetate", "IPAc"),
    _e("dmso", "chemical_substance", "dimethyl sulfoxide", "DMSO"),
    _e("magnesium-sulfate", "chemical_substance", "magnesium sulfate", "MgSO4"),
    _e("tfa", "chemical_substance", "trifluoroacetic acid", "TFA"),
    _e("activated-carbon", "chemical_substance", "activated carbon", "charcoal"),
    _e("quadrasil", "chemical_substance", "QuadraSil MP", lex=False),
    _e("r-101", "equipment", "100 L glass-lined reactor", "R-101", "glass-lined reactor"),
    _e("r-201", "equipment", "250 L Hastelloy reactor", "R-201"),
    _e("fd-301", "equipment", "Hastelloy filter dryer", "FD-301", "agitated filter dryer"),
    _e("cstr", "equipment", "CSTR", "continuous stirred-tank reactor"),
    _e("nutsche", "equipment", "Nutsche filter", "Nutsche"),
    _e("r-050", "equipment", "50 L jacketed glass reactor", "R-050"),
    _e("cvd", "equipment", "conical vacuum dryer", "CVD-02"),
    _e("crystallisation", "unit_operation", "crystallisation", "crystallization", "Kristallisation"),
    _e("filtration", "unit_operation", "filtration", "Filtration"),
    _e("phase-separation", "unit_operation", "phase separation", "phase split"),
    _e("extraction", "unit_operation", "liquid-liquid extraction", "extraction"),
    _e("distillation", "unit_operation", "distillation", "solvent swap"),
    _e("vacuum-drying", "unit_operation", "vacuum drying", "drying under vacuum", "Vakuumtrocknung"),
    _e("quench", "unit_operation", "quench", "aqueous quench"),
    _e("azeotropic-drying", "unit_operation", "azeotropic drying"),
    _e("scavenging", "unit_operation", "palladium scavenging", "metal scavenging"),
    _e("hplc", "analytical_method", "HPLC", "high-performance liquid chromatography"),
    _e("dsc", "analytical_method", "DSC", "differential scanning calorimetry"),
    _e("kf", "analytical_method", "KF", "Karl Fischer titration"),
    _e("gc", "analytical_method", "GC", "gas chromatography", "headspace GC"),
    _e("xrpd", "analytical_method", "XRPD", "X-ray powder diffraction"),
    _e("icp-ms", "analytical_method", "ICP-MS"),
    *(Entity(f"role-{r.replace(' ', '-')}", "role", r, (r,)) for r in ROLES),
)

GERMAN_FORMS = frozenset({"Wasser", "Salzsäure", "Acetonitril", "Methyl-tert-butylether", "Filtration",
                          "Kristallisation", "Vakuumtrocknung"})

# ICH Q3C class, boiling point (°C), density (g/mL), water miscibility, PDE (mg/day) or "-"
SOLVENT_PROPERTIES: dict[str, tuple[str, int, float, str, str]] = {
    "acetonitrile": ("Class 2", 82, 0.786, "miscible", "4.1"),
    "2-methf": ("Class 3", 80, 0.854, "partial (14 g/100 g)", "50"),
    "thf": ("Class 2", 66, 0.889, "miscible", "7.2"),
    "toluene": ("Class 2", 111, 0.867, "immiscible", "8.9"),
    "mtbe": ("Class 3", 55, 0.740, "partial (4.8 g/100 g)", "50"),
    "heptane": ("Class 3", 98, 0.684, "immiscible", "50"),
    "ethanol": ("Class 3", 78, 0.789, "miscible", "50"),
    "isopropanol": ("Class 3", 82, 0.786, "miscible", "50"),
    "methanol": ("Class 2", 65, 0.792, "miscible", "30"),
    "ethyl-acetate": ("Class 3", 77, 0.902, "partial (8.3 g/100 g)", "50"),
    "acetone": ("Class 3", 56, 0.784, "miscible", "50"),
    "dcm": ("Class 2", 40, 1.326, "immiscible", "6.0"),
    "cpme": ("not listed", 106, 0.860, "immiscible", "-"),
    "ipac": ("Class 3", 89, 0.872, "partial (2.9 g/100 g)", "50"),
    "dmso": ("Class 3", 189, 1.100, "miscible", "50"),
    "water": ("-", 100, 0.998, "-", "-"),
}

_DRUG_CODES = ("KX-4471", "LQ-2290", "MV-1183", "NT-5527", "PR-3306", "SB-7714", "TD-0962", "WF-8845")
_INT_PREFIXES = ("RA-X", "RB-Y", "RC-Z", "RD-W", "RE-V", "RF-U", "RG-T", "RH-S")
_GROUPS = ("methyl", "methoxy", "chloro", "ethyl", "fluoro", "isopropyl", "cyclopropyl", "ethoxy",
           "trifluoromethyl", "difluoromethyl")
# unique pyridine substitution patterns: none, one group at C4 or C6, then one group at each
_SUBSTITUENTS = ("", *(f"{pos}-{g}" for g in _GROUPS for pos in (4, 6)),
                 *(f"4-{g}-6-{h}" for g in _GROUPS for h in _GROUPS))
_PARTNERS = (
    ("cyclopropyl", "cyclopropylboronic acid", ("c-PrB(OH)2",)),
    ("4-fluorophenyl", "4-fluorophenylboronic acid", ("4-F-C6H4B(OH)2",)),
    ("pyridin-3-yl", "pyridin-3-ylboronic acid", ("3-pyridylboronic acid",)),
    ("1-methylpyrazol-4-yl", "1-methylpyrazole-4-boronic acid pinacol ester", ("MPBE",)),
)


@dataclass
class Programme:
    """One fictional drug-substance programme: its codes, entities and route."""

    index: int
    drug: str
    prefix: str
    lot_prefix: str
    entities: dict[str, Entity]
    steps: list[Step]
    impurities: list[str]
    rng_seed: int
    seed: int
    partner: str  # entity id of the boronic acid (shared between programmes that use it)

    def entity(self, id_: str) -> Entity:
        return self.entities[id_]

    def pid(self, local: str) -> str:
        """Programme-scoped entity id."""
        return f"{self.drug.lower().replace('-', '')}-{local}"

    def step(self, number: int) -> Step:
        return self.steps[number - 1]


def _name(sub: str, stem: str) -> str:
    return f"5-bromo-2-fluoro-{sub}-{stem}" if sub else f"5-bromo-2-fluoro{stem}"


def build_programme(seed: int, index: int) -> Programme:
    """The programme at `index`: index 0 is the scale-1 programme (KX-4471)."""
    rng = random.Random(f"{seed}:programme:{index}")
    drug = _DRUG_CODES[index % len(_DRUG_CODES)] + ("" if index < len(_DRUG_CODES) else f"-{index}")
    code = _INT_PREFIXES[index % len(_INT_PREFIXES)]
    sub = _SUBSTITUENTS[index % len(_SUBSTITUENTS)]
    r_name, partner_name, partner_forms = _PARTNERS[index % len(_PARTNERS)]
    partner = "boronic-" + r_name.replace("-", "")
    cycle = "" if index < len(_DRUG_CODES) else str(index // len(_DRUG_CODES))
    base = 10 * index  # compound numbers never collide between programmes
    dkey = drug.lower().replace("-", "")
    p = lambda local: f"{dkey}-{local}"
    n = lambda k: str(k + base)
    x = lambda k: f"{code}{k + 3 * index}"
    sub_cap = f"{sub}-" if sub else ""
    own = [
        _e(p("aldehyde"), "chemical_substance", _name(sub, "nicotinaldehyde"), f"compound {n(10)}",
           f"aldehyde {n(10)}", f"SM-{n(10)}", lex=False),
        _e(p("oxime"), "chemical_substance", f"(E)-{_name(sub, 'nicotinaldehyde')} oxime", f"oxime {n(9)}",
           f"compound {n(9)}", lex=False),
        _e(p("acylimidazole"), "chemical_substance", f"O-(imidazole-1-carbonyl) oxime {n(8)}",
           f"carbamate {n(8)}", lex=False),
        _e(p("nitrile"), "chemical_substance", _name(sub, "nicotinonitrile"), f"nitrile {n(7)}",
           f"compound {n(7)}", lex=False),
        _e(p("boc-int"), "chemical_substance", x(35), f"compound {n(6)}",
           f"tert-butyl 7-bromo-{sub_cap}9-cyano-2,3-dihydropyrido[3,2-f][1,4]oxazepine-4(5H)-carboxylate", lex=False),
        _e(partner, "chemical_substance", partner_name, *partner_forms),
        _e(p("coupled"), "chemical_substance", x(41), f"compound {n(5)}",
           f"tert-butyl 7-{r_name}-{sub_cap}9-cyano-2,3-dihydropyrido[3,2-f][1,4]oxazepine-4(5H)-carboxylate",
           lex=False),
        _e(p("free-base"), "chemical_substance", f"{drug} free base", f"compound {n(3)}",
           f"7-{r_name}-{sub_cap}2,3,4,5-tetrahydropyrido[3,2-f][1,4]oxazepine-9-carbonitrile", lex=False),
        _e(p("hcl-salt"), "chemical_substance", f"{drug} hydrochloride", f"{drug}·HCl", f"compound {n(1)}",
           f"{drug} HCl salt", lex=False),
        _e(p("imp-a"), "impurity", f"IMP-{code[1]}{cycle}A", "des-bromo impurity", "protodebromination impurity", lex=False),
        _e(p("imp-b"), "impurity", f"IMP-{code[1]}{cycle}B", f"primary amide {n(8)}a", "amide impurity", lex=False),
        _e(p("imp-c"), "impurity", f"IMP-{code[1]}{cycle}C", "homocoupling dimer", "biaryl dimer", lex=False),
        _e(p("imp-d"), "impurity", f"IMP-{code[1]}{cycle}D", "N-tert-butyl impurity", lex=False),
    ]
    steps_spec = [
        (1, "oxime formation", ("oxime formation step",), "A"),
        (2, "dehydration to nitrile", ("oxime dehydration", "nitrile formation"), "A"),
        (3, "SNAr cyclisation", ("SNAr cyclization", "cyclisation step"), "A"),
        (4, "Suzuki coupling", ("Suzuki-Miyaura coupling", "cross-coupling step"), "B"),
        (5, "Boc deprotection", ("deprotection step", "Boc removal"), "B"),
        (6, "salt formation and crystallisation", ("HCl salt formation", "final crystallisation"), "B"),
    ]
    for num, name, forms, _ in steps_spec:
        own.append(Entity(p(f"s{num}"), "planned_process", name, (name, f"Step {num}", f"S{num}", *forms)))
    ents = {e.id: e for e in (*COMMON, *own)}

    def jig(v: float, spread: float, nd: int = 1) -> float:
        """Programme 0 keeps the reference values; others vary them."""
        return v if index == 0 else round(v + rng.uniform(-spread, spread), nd)

    def t(v: float) -> float:
        return v if index == 0 else float(round(v + rng.choice((-10, -5, 0, 5))))

    C = Condition
    s = [
        Step(p("s1"), 1, "oxime formation", "A", StepState(
            p("s1"),
            ((p("aldehyde"), "starting material"), ("hydroxylamine-hcl", "reagent"), ("sodium-acetate", "base"),
             ("ethanol", "solvent"), ("water", "solvent")),
            (p("oxime"),), ("r-101", "nutsche"), ("crystallisation", "filtration"),
            (C("temperature", t(50), "°C"), C("time", 3, "h"), C("equivalents", jig(1.1, 0.05, 2), "equiv",
             "hydroxylamine-hcl"), C("volume", 8, "vol", "ethanol"), C("yield", jig(91.5, 2.0), "%"),
             C("purity", jig(99.1, 0.4), "area%")))),
        Step(p("s2"), 2, "dehydration to nitrile", "A", StepState(
            p("s2"),
            ((p("oxime"), "intermediate"), ("cdi", "reagent"), ("thf", "solvent"), ("water", "quench agent")),
            (p("nitrile"),), ("r-101",), ("quench", "phase-separation", "distillation"),
            (C("temperature", t(65), "°C"), C("time", 4, "h"), C("equivalents", jig(1.5, 0.05, 2), "equiv", "cdi"),
             C("volume", 10, "vol", "thf"), C("yield", jig(86.0, 2.0), "%"), C("purity", jig(98.2, 0.5), "area%")))),
        Step(p("s3"), 3, "SNAr cyclisation", "A", StepState(
            p("s3"),
            ((p("nitrile"), "intermediate"), ("boc-ethanolamine", "reagent"), ("kotbu", "base"), ("thf", "solvent"),
             ("ammonium-chloride", "quench agent"), ("2-methf", "solvent"), ("water", "solvent")),
            (p("boc-int"),), ("r-201",), ("quench", "extraction", "phase-separation", "crystallisation"),
            (C("temperature", t(-5), "°C"), C("time", 6, "h"), C("equivalents", jig(2.2, 0.1, 2), "equiv", "kotbu"),
             C("volume", 12, "vol", "thf"), C("yield", jig(78.0, 3.0), "%"), C("purity", jig(97.6, 0.6), "area%")))),
        Step(p("s4"), 4, "Suzuki coupling", "B", StepState(
            p("s4"),
            ((p("boc-int"), "intermediate"), (partner, "reagent"), ("pd-dppf", "catalyst"), ("k3po4", "base"),
             ("toluene", "solvent"), ("water", "solvent"), ("siliamets-thiol", "reagent")),
            (p("coupled"),), ("r-201",), ("phase-separation", "scavenging", "filtration", "crystallisation"),
            (C("temperature", t(85), "°C"), C("time", 8, "h"), C("catalyst loading", 2.0, "mol%", "pd-dppf"),
             C("equivalents", jig(3.0, 0.2, 1), "equiv", "k3po4"), C("yield", jig(84.0, 3.0), "%"),
             C("purity", jig(98.8, 0.4), "area%")))),
        Step(p("s5"), 5, "Boc deprotection", "B", StepState(
            p("s5"),
            ((p("coupled"), "intermediate"), ("hydrogen-chloride", "reagent"), ("isopropanol", "solvent"),
             ("sodium-hydroxide", "base"), ("2-methf", "solvent"), ("water", "solvent")),
            (p("free-base"),), ("r-201",), ("extraction", "phase-separation", "azeotropic-drying"),
            (C("temperature", t(50), "°C"), C("time", 4, "h"), C("equivalents", jig(4.0, 0.3, 1), "equiv",
             "hydrogen-chloride"), C("pH", 12, ""), C("yield", jig(93.0, 2.0), "%"),
             C("purity", jig(99.3, 0.3), "area%"))), prose_only=True),
        Step(p("s6"), 6, "salt formation and crystallisation", "B", StepState(
            p("s6"),
            ((p("free-base"), "intermediate"), ("hydrochloric-acid", "reagent"), ("acetone", "solvent"),
             ("mtbe", "antisolvent")),
            (p("hcl-salt"),), ("r-050", "fd-301"), ("crystallisation", "filtration", "vacuum-drying"),
            (C("temperature", t(5), "°C"), C("time", 12, "h"), C("equivalents", jig(1.05, 0.02, 2), "equiv",
             "hydrochloric-acid"), C("volume", 15, "vol", "acetone"), C("pressure", 50, "mbar"),
             C("yield", jig(88.0, 2.0), "%"), C("purity", jig(99.7, 0.15, 2), "area%")))),
    ]
    s[0].changes = [Change(9, "reaction time shortened", (("condition", ("time", 2, "")),))]
    s[1].changes = [
        Change(5, "solvent changed from THF to 2-MeTHF", (("swap_input", ("thf", "2-methf")),)),
        Change(7, "temperature and CDI charge reduced",
               (("condition", ("temperature", s[1].base.condition("temperature").value - 5, "")),  # type: ignore[union-attr]
                ("condition", ("equivalents", 1.2, "cdi")))),
    ]
    s[2].changes = [
        Change(10, "base charge reduced and temperature raised",
               (("condition", ("equivalents", 1.8, "kotbu")),
                ("condition", ("temperature", s[2].base.condition("temperature").value + 5, "")))),  # type: ignore[union-attr]
        Change(11, "continuous quench in a CSTR introduced",
               (("add_equipment", "cstr"), ("add_condition", C("pH", 9, "")))),
    ]
    s[3].changes = [
        Change(4, "catalyst loading halved and temperature lowered",
               (("condition", ("catalyst loading", 1.0, "pd-dppf")),
                ("condition", ("temperature", s[3].base.condition("temperature").value - 5, "")))),  # type: ignore[union-attr]
        Change(6, "toluene replaced by 2-MeTHF", (("swap_input", ("toluene", "2-methf")),)),
    ]
    s[5].changes = [
        Change(3, "acetone replaced by acetonitrile", (("swap_input", ("acetone", "acetonitrile")),)),
        Change(7, "final cooling temperature lowered",
               (("condition", ("temperature", s[5].base.condition("temperature").value - 5, "")),)),  # type: ignore[union-attr]
    ]
    return Programme(index, drug, code, f"{drug[:2]}{cycle}", ents, s,
                     [p("imp-a"), p("imp-b"), p("imp-c"), p("imp-d")], rng.randrange(10**9), seed, partner)
