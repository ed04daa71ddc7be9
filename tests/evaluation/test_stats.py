"""Issue 12: the harness's statistics against hand-computed values."""

from __future__ import annotations

import math

import pytest

from kb.evaluation.stats import (
    cohen_kappa,
    mirror_overlap_rejects,
    near_duplicate,
    question_count,
    wilson_interval,
)


def test_wilson_matches_the_seed_papers_intervals() -> None:
    low, high = wilson_interval(480, 505)
    assert (round(low * 100, 1), round(high * 100, 1)) == (92.8, 96.6)
    low, high = wilson_interval(428, 505)
    assert (round(low * 100, 1), round(high * 100, 1)) == (81.4, 87.6)


def test_wilson_hand_computed_small_sample() -> None:
    # p = 0.5, n = 10, z = 1.96: centre 0.5, half = 1.96*sqrt(0.025 + 0.0096)/1.3842 = 0.2634
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 0.0)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_kappa_hand_computed() -> None:
    # po = (20+15)/50 = 0.7; pe = 0.5*0.6 + 0.5*0.4 = 0.5; kappa = 0.4
    assert cohen_kappa(20, 5, 10, 15) == pytest.approx(0.4)
    assert cohen_kappa(10, 0, 0, 10) == pytest.approx(1.0)
    assert math.isnan(cohen_kappa(10, 0, 0, 0))


@pytest.mark.parametrize("words,expected", [(0, 5), (4000, 5), (8000, 10), (12000, 15), (100000, 30), (23999, 30), (19600, 24)])
def test_question_count_formula(words: int, expected: int) -> None:
    assert question_count(words) == expected


def test_mirror_overlap_keeps_numerically_different_pairs() -> None:
    assert not mirror_overlap_rejects("3.5 min at 30 °C", "2.0 min at 50 °C")
    assert mirror_overlap_rejects("stirred for 2 h at 60 °C in 2-MeTHF", "stirred for 2 h at 60 °C in 2-MeTHF.")
    assert not mirror_overlap_rejects("stirred for 2 h at 60 °C", "filtered and washed with cold heptane")


def test_dedup_rules() -> None:
    assert near_duplicate("What temperature was used in step 3 of TR-2019-014?", "In TR-2019-014, what temperature was used in step 3?")
    assert not near_duplicate("What temperature was used in step 3?", "Which base was charged in the Grignard step?")
    assert near_duplicate("Stem one about yield", "Completely different stem", "same quote", "same quote")
