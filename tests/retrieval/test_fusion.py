"""Fusion arithmetic on hand-made rankings."""

from __future__ import annotations

import numpy as np

from kb.retrieval.filters import Filters
from kb.retrieval.fusion import ranked, reciprocal_rank, top_rows, weighted
from kb.retrieval.search import collapse, rrf_weights, without_anchors


def test_rrf_rewards_agreement() -> None:
    fused = reciprocal_rank([[3, 1, 2], [1, 3, 0]], k=60)
    assert fused[1] == 1 / 62 + 1 / 61
    assert [row for row, _ in ranked(fused, 4)] == [1, 3, 0, 2]  # 0 and 2 tie: lower row first


def test_weighted_normalises_each_method() -> None:
    keyword = np.array([10.0, 5.0, 0.0], dtype=np.float32)
    dense = np.array([0.1, 0.9, 0.5], dtype=np.float32)
    fused = weighted([(keyword, [0, 1], 0.3), (dense, [1, 2, 0], 0.7)])
    assert ranked(fused, 3)[0][0] == 1
    assert abs(fused[0] - 0.3) < 1e-6


def test_top_rows_skips_filtered_and_zero_scores() -> None:
    scores = np.array([0.0, 2.0, -np.inf, 2.0, 1.0], dtype=np.float32)
    assert top_rows(scores, 10) == [1, 3, 4]


def test_repeated_texts_collapse_to_one_row_that_both_methods_vote_for() -> None:
    text_key = [0, 0, 1, 2, 1]  # rows 0/1 and 2/4 are copies of one text in two report versions
    distinct, copies = collapse({"keyword": [1, 0, 2, 4], "dense": [4, 3, 0]}, text_key)
    assert distinct == {"keyword": [1, 2], "dense": [2, 3, 1]}
    assert copies == [0, 4]


def test_weighted_rrf_halves_a_methods_vote() -> None:
    fused = reciprocal_rank([[1], [2]], k=60, weights=[1.0, 0.5])
    assert fused == {1: 1 / 61, 2: 0.5 / 61}


def test_the_embedded_question_drops_the_anchors_its_filter_enforces() -> None:
    query = "In report TR-2019-014 version 7, how long is step 1 held?"
    assert without_anchors(query, Filters(series="TR-2019-014", version="7")) == "how long is step 1 held?"
    assert without_anchors(query, Filters(series="TR-2019-014", version="3..8")) == "In version 7, how long is step 1 held?"


def test_dense_vote_shrinks_without_filters() -> None:
    filtered = rrf_weights(["keyword", "dense"], Filters(series="TR-2019-014"))
    unfiltered = rrf_weights(["keyword", "dense"], Filters())
    assert filtered[0] == unfiltered[0] == 1.0 and unfiltered[1] < filtered[1] < 1.0
