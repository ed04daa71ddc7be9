"""Pipeline stage: resolve the mentions graph into the domain and resolution graphs."""

from __future__ import annotations

from pathlib import Path

from kb.registry import StageContext, StageResult, stages
from kb.resolve.pipeline import run_resolution
from kb.resolve.report import summary_lines


@stages.register("resolve.canonical_entities.v1", requires=["graph:mentions"], produces=["graph:domain", "graph:resolution"])
def canonical_entities(
    ctx: StageContext, *, use_embeddings: bool = True, threshold: float = 0.92, state: str = ""
) -> StageResult:
    """Merge document-local mentions into canonical, provenance-anchored individuals."""
    outcome = run_resolution(ctx.store, ctx.config, use_embeddings=use_embeddings, threshold=threshold,
                             state=Path(state) if state else None)
    ctx.artifacts["resolution"] = outcome
    anchoring = outcome.layer.anchoring()
    failures = [f"{anchoring['unanchored']} canonical entities have no provenance path"] if anchoring["unanchored"] else []
    return StageResult(lines=summary_lines(outcome.counts()), failures=failures)
