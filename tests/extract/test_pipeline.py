"""Rule pipeline on hand-written process text: classes, exact spans, roles, conditions, tables."""

from __future__ import annotations

from kb import vocab
from kb.stages.extract.mentions import Cell, Chunk, Mention
from kb.stages.extract.pipeline import extract_chunk
from kb.stages.extract.spans import sentence_spans

PROCEDURE = (
    "Step 3 (SNAr cyclisation): nitrile 7 (9.1 kg) was charged to the 250 L Hastelloy reactor R-201, "
    "followed by THF (12 vol). KOtBu (2.2 equiv) was added as base at -5 °C and the mixture was stirred for 6 h. "
    "The reaction was quenched with aq. NH4Cl and the product was extracted into 2-MeTHF. "
    "Crystallisation from heptane afforded RA-X35 (78% yield, 97.6 area% by HPLC), batch KX3-20-012."
)


def found(chunk: Chunk) -> dict[tuple[str, str], Mention]:
    return {(m.text, m.kind if m.kind != "role" else "role:" + m.attr("role")): m for m in extract_chunk(chunk)}


def test_every_mention_quotes_its_exact_span() -> None:
    chunk = Chunk("urn:test:chunk/1", PROCEDURE)
    mentions = extract_chunk(chunk)
    assert mentions
    for m in mentions:
        assert PROCEDURE[m.start : m.end] == m.text
        assert m.iri == f"urn:test:chunk/1/mention/{m.start}-{m.end}-{m.cls.rsplit('/', 1)[-1].rsplit('#', 1)[-1]}"
    assert mentions == sorted(mentions, key=lambda m: (m.chunk, m.start, m.end, m.cls, m.rule))


def test_classes_of_a_procedure() -> None:
    got = found(Chunk("urn:c", PROCEDURE))
    expected = {
        ("Step 3", "planned_process"), ("SNAr cyclisation", "planned_process"), ("nitrile 7", "substance"),
        ("250 L Hastelloy reactor", "equipment"), ("R-201", "equipment"), ("THF", "substance"),
        ("KOtBu", "substance"), ("NH4Cl", "substance"), ("2-MeTHF", "substance"),
        ("Crystallisation", "unit_operation"), ("heptane", "substance"), ("RA-X35", "substance"),
        ("HPLC", "analytical_method"), ("KX3-20-012", "batch"), ("base", "role:base"),
    }
    assert expected <= set(got)
    assert got[("THF", "substance")].cls == vocab.CHEMICAL_ENTITY_CLASS.value
    assert got[("250 L Hastelloy reactor", "equipment")].cls == vocab.DEVICE_CLASS.value
    assert got[("Crystallisation", "unit_operation")].attr("refined") == "PROCO_0000052"


def test_roles_from_context() -> None:
    got = found(Chunk("urn:c", PROCEDURE))
    assert ("THF", "role:solvent") in got
    assert ("KOtBu", "role:base") in got
    assert ("NH4Cl", "role:quench agent") in got
    assert ("RA-X35", "role:product") in got
    assert ("nitrile 7", "role:starting material") in got


def test_conditions_are_normalised_with_units() -> None:
    got = found(Chunk("urn:c", PROCEDURE))
    values = {text: (m.attr("condition"), m.attr("value"), m.attr("unit")) for (text, kind), m in got.items() if kind == "condition"}
    assert values["-5 °C"] == ("temperature", "-5", "°C")
    assert values["6 h"] == ("time", "6", "h")
    assert values["2.2 equiv"] == ("equivalents", "2.2", "equiv")
    assert values["12 vol"] == ("volume", "12", "vol")
    assert values["78%"] == ("yield", "78", "%")
    assert values["97.6 area%"] == ("purity", "97.6", "area%")
    assert "9.1 kg" in values and "250 L" not in values


def test_names_outside_the_lexicon() -> None:
    text = (
        "The coupling of tert-butyl 7-bromo-9-cyano-2,3-dihydropyrido[3,2-f][1,4]oxazepine-4(5H)-carboxylate "
        "with c-PrB(OH)2 gave compound 12a; KX-4471·HCl and intermediate 5 were treated with SiliaMetS Thiol."
    )
    got = {m.text for m in extract_chunk(Chunk("urn:c", text)) if m.kind == "substance"}
    assert {
        "tert-butyl 7-bromo-9-cyano-2,3-dihydropyrido[3,2-f][1,4]oxazepine-4(5H)-carboxylate",
        "c-PrB(OH)2", "compound 12a", "KX-4471·HCl", "intermediate 5", "SiliaMetS Thiol",
    } <= got


def test_near_misses_stay_apart() -> None:
    got = {(m.text, m.attr("canonical")) for m in extract_chunk(Chunk("urn:c", "THF was replaced by 2-MeTHF.")) if m.kind == "substance"}
    assert got == {("THF", "tetrahydrofuran"), ("2-MeTHF", "2-methyltetrahydrofuran")}


def test_acronyms_are_not_formulas_and_words_are_not_names() -> None:
    text = "The CSTR and HPLC data for the nitrile were reviewed; the product was dried."
    kinds = {(m.text, m.kind) for m in extract_chunk(Chunk("urn:c", text))}
    assert ("CSTR", "equipment") in kinds and ("HPLC", "analytical_method") in kinds
    assert not any(kind == "substance" for _, kind in kinds)


def test_table_cells_take_roles_from_column_headers() -> None:
    rows = [["Material", "Solvent", "Base (equiv)"], ["nitrile 7", "2-MeTHF", "KOtBu (2.2)"]]
    cells = tuple(
        Cell(r, c, text, is_header=r == 0, column_header="" if r == 0 else rows[0][c])
        for r, row in enumerate(rows) for c, text in enumerate(row)
    )
    text = "\n".join(" | ".join(row) for row in rows)
    got = found(Chunk("urn:t", text, kind="table", cells=cells))
    assert ("2-MeTHF", "role:solvent") in got
    assert got[("2-MeTHF", "role:solvent")].rule == "role.table_header"
    assert ("KOtBu", "role:base") in got
    assert ("Solvent", "role:solvent") not in got  # a header names a column, not a role assignment


def test_sentences_respect_lab_abbreviations() -> None:
    text = "The mixture was washed with aq. NaHCO3 and 2.0 equiv. of base. It was dried."
    spans = sentence_spans(text)
    assert [text[s:e] for s, e in spans] == ["The mixture was washed with aq. NaHCO3 and 2.0 equiv. of base.", "It was dried."]


def test_quantities_brackets_and_programme_codes_are_not_compounds() -> None:
    text = (
        "The filtration took 41 min for a cake height of 26 cm. Volume (ethanol) was recorded. "
        "KX-4471 process development: residual solvents were analysed on a DB-624 column for RA-X35; "
        "KX-4471 hydrochloride and compound 12 gave 15."
    )
    got = {m.text for m in extract_chunk(Chunk("urn:c", text)) if m.kind == "substance"}
    assert got == {"ethanol", "RA-X35", "KX-4471 hydrochloride", "compound 12", "15"}


def test_dosed_materials_are_reagents_and_aqueous_quench_solutions_quench_agents() -> None:
    text = (
        "Nitrile 7 (9.1 kg) was charged, then N-Boc-ethanolamine was charged portionwise over 30 min. "
        "For the quench, the reaction stream and aqueous NH4Cl were pumped into the CSTR, giving the oxazepine ring system."
    )
    got = found(Chunk("urn:c", text))
    assert ("N-Boc-ethanolamine", "role:reagent") in got
    assert ("NH4Cl", "role:quench agent") in got
    assert ("oxazepine", "substance") not in got
    changed = found(Chunk("urn:c", "The solvent was changed from THF to 2-MeTHF."))
    assert ("THF", "role:solvent") not in changed


def test_german_names_of_common_materials() -> None:
    text = "Die freie Base wurde in Acetonitril gelöst und mit Salzsäure versetzt; die Kristallisation lieferte das Salz."
    got = {(m.text, m.attr("canonical")) for m in extract_chunk(Chunk("urn:c", text)) if m.kind in {"substance", "unit_operation"}}
    assert {("Acetonitril", "acetonitrile"), ("Salzsäure", "hydrochloric acid"), ("Kristallisation", "crystallisation")} <= got


def test_a_measured_content_is_not_a_step_input() -> None:
    from kb.stages.extract.relations import HAS_INPUT, extract_relations

    chunk = Chunk("urn:d/chunk/1", "The dehydration was run in MeTHF with purified water contents up to 4%.", document="urn:d",
                  section="Step 2: Dehydration")
    inputs = {(r.obj, r.role) for r in extract_relations([chunk], {chunk.iri: extract_chunk(chunk)}) if r.predicate == HAS_INPUT}
    assert inputs == {("MeTHF", "solvent")}


def test_sentence_initial_forms_salt_formation_and_charged_lexicon_reagents() -> None:
    got = found(Chunk("urn:c", "Aq. HCl (2 vol) was added. Salt formation of KX-4471 free base with HCl in IPA. c-PrB(OH)2 was charged in one portion."))
    assert got[("Aq. HCl", "substance")].attr("canonical") == "hydrochloric acid"
    assert ("KX-4471 free base", "role:product") not in got
    assert ("c-PrB(OH)2", "role:starting material") not in got
