"""Fusion of keyword and dense rankings: reciprocal rank fusion, and a weighted-score variant.

RRF (Cormack et al. 2009) needs no score calibration; the weighted variant min-max normalises
each method's scores over its candidates and mixes them (0.7 dense / 0.3 keyword, the PRINCE
seed's split). docs/retrieval.md compares the two on the demo program.

RRF_K is 10, not the paper's 60: with 60 a row both methods place around rank 20 outscores one
method's first hit, and on the demo program the chunk stating the fact is most often a first hit
of BM25 that MiniLM ranks low (docs/retrieval.md).
"""

from __future__ import annotations

import numpy as np

RRF_K = 10


def top_rows(scores: np.ndarray, n: int) -> list[int]:
    """Rows of the n best finite, positive-evidence scores, best first (ties by row: deterministic)."""
    valid = np.flatnonzero(np.isfinite(scores) & (scores > 0))
    if valid.size == 0:
        return []
    if valid.size > n:
        # keep every row scoring at least the n-th best, so ties at the cut stay row-ordered
        cut = np.partition(scores[valid], valid.size - n)[valid.size - n]
        valid = valid[scores[valid] >= cut]
    order = np.lexsort((valid, -scores[valid]))
    return [int(r) for r in valid[order][:n]]


def reciprocal_rank(rankings: list[list[int]], *, k: int = RRF_K, weights: list[float] | None = None) -> dict[int, float]:
    """Sum over methods of weight / (k + rank), rank starting at 1 (weights default to 1)."""
    fused: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights or [1.0] * len(rankings)):
        for rank, row in enumerate(ranking, start=1):
            fused[row] = fused.get(row, 0.0) + weight / (k + rank)
    return fused


def weighted(candidates: list[tuple[np.ndarray, list[int], float]]) -> dict[int, float]:
    """Sum over methods of weight * min-max-normalised score, over each method's own candidates."""
    fused: dict[int, float] = {}
    for scores, ranking, weight in candidates:
        if not ranking:
            continue
        values = scores[ranking]
        low, high = float(values.min()), float(values.max())
        span = high - low or 1.0
        for row, value in zip(ranking, values):
            fused[row] = fused.get(row, 0.0) + weight * (float(value) - low) / span
    return fused


def ranked(fused: dict[int, float], n: int) -> list[tuple[int, float]]:
    """Best first; ties broken by row so results never depend on dict order."""
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:n]
