"""Pipeline stage: update the passage indexes after the lexical graphs were written."""

from __future__ import annotations

from kb.registry import StageContext, StageResult, stages
from kb.retrieval.index import build_index, update_index


@stages.register("index.update_passages.v1", requires=["graph:lexical"], produces=["index:passages"])
def update_passages(ctx: StageContext, *, rebuild: bool = False) -> StageResult:
    """Index new or replaced documents' chunks and drop removed ones (or rebuild everything)."""
    stats = build_index(ctx.store, ctx.config) if rebuild else update_index(ctx.store, ctx.config)
    return StageResult(lines=stats.lines())
