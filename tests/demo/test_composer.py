"""The Composer records every entity reference written, explicit or plain text, without overlaps."""

from __future__ import annotations

import pytest

from kb.demo.chemistry import build_programme
from kb.demo.model import Composer, Mention, stable_rng


@pytest.fixture
def composer() -> Composer:
    return Composer(build_programme(7, 0), "test", stable_rng("test"))


def test_plain_text_forms_become_mentions_without_overlap(composer: Composer) -> None:
    sentence = composer.sent("IPC by HPLC showed NH2OH·HCl below 0.1% and HCl in IPA was charged in Step 5.")
    assert sentence.mentions == [
        Mention("HPLC", "hplc"), Mention("NH2OH·HCl", "hydroxylamine-hcl"), Mention("HCl", "hydrogen-chloride"),
        Mention("IPA", "isopropanol"), Mention("Step 5", "kx4471-s5")]


def test_explicit_reference_is_not_counted_twice(composer: Composer) -> None:
    sentence = composer.sent(f"{composer.ref('2-methf', '2-MeTHF')} replaced THF; MeTHF is not 2-Me-THF's alias here.")
    forms = [(m.form, m.entity) for m in sentence.mentions]
    assert forms.count(("2-MeTHF", "2-methf")) == 1
    assert ("THF", "thf") in forms and ("MeTHF", "2-methf") in forms


def test_sentence_initial_capital_is_the_recorded_form(composer: Composer) -> None:
    sentence = composer.sent(f"{composer.ref('kx4471-free-base', 'compound 3')} is an oil.")
    assert sentence.text.startswith("Compound 3") and sentence.mentions[0] == Mention("Compound 3", "kx4471-free-base")


def test_reference_must_use_a_known_form(composer: Composer) -> None:
    with pytest.raises(ValueError, match="not a surface form"):
        composer.ref("acetonitrile", "methyl cyanide")
