"""Normalisation: the keyword side must treat spelling variants of one fact as the same terms."""

from __future__ import annotations

import pytest

from kb.retrieval.normalise import matched_spans, term_list


@pytest.mark.parametrize("text", ["60 °C", "60°C", "60 C", "60 ℃", "60 ºC", "60.0 °C"])
def test_temperatures_written_differently_share_one_term(text: str) -> None:
    assert "60degc" in term_list(f"heated to {text} overnight")


def test_german_decimal_comma_and_hours() -> None:
    assert "1.5h" in term_list("Rühren bei 25 °C für 1,5 h")


def test_abbreviation_and_full_name_meet() -> None:
    assert "acetonitril" in term_list("washed with MeCN")
    assert "acetonitril" in term_list("Acetonitrile was used")
    assert "nucleophil" in term_list("the SNAr step")


def test_short_forms_are_case_sensitive() -> None:
    assert "acetonitril" not in term_list("the acn score")


def test_identifiers_stay_whole_so_near_misses_differ() -> None:
    assert "ra-x35-0042" in term_list("Lot RA-X35-0042")
    assert "ra-x35-0042" not in term_list("Lot RA-X35-0043")


def test_unicode_and_case_fold() -> None:
    assert term_list("ＣＯＮＶＥＲＳＩＯＮ") == term_list("conversion")


def test_versions_normalise() -> None:
    assert "v4" in term_list("Version 4") and "v4" in term_list("TR-2019-014 v4")


def test_matched_spans_point_at_raw_text() -> None:
    text = "Heat the mixture to 60 °C in MeCN."
    spans = matched_spans(text, set(term_list("acetonitrile at 60 C")))
    assert [text[s:e] for s, e in spans] == ["60 °C", "MeCN"]


def test_attribute_question_meets_a_bare_quantity() -> None:
    sentence = set(term_list("The mixture was stirred at 50 °C for 3 h."))
    assert set(term_list("how long")) & sentence
    assert set(term_list("reaction temperature")) & sentence
    assert set(term_list("recommendation")) & set(term_list("Conclusions and next steps"))


def test_purity_question_meets_purity_wording() -> None:
    assert set(term_list("How pure is the product?")) & set(term_list("98.2 area% purity by HPLC"))


def test_substance_stands_for_its_class() -> None:
    assert "solvent" in term_list("Step 3 uses THF at -5 °C.")
    assert "solvent" in term_list("run in ethanol at 50 °C")


def test_step_numbers_are_one_term() -> None:
    assert "step3" in term_list("Step 3 (SNAr cyclisation)") and "step3" in term_list("Stufe 3")
    assert "step3" not in term_list("step 6, 3 h")
