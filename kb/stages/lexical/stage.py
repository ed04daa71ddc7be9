"""Pipeline stages for parsing source files and writing their lexical graphs."""

from __future__ import annotations

from kb.ingest import (
    IngestSummary,
    changed_sources,
    collect_sources,
    limits_from,
    parse_sources,
    write_lexical,
)
from kb.progress import progress_bar
from kb.registry import StageContext, StageResult, stages


@stages.register("parse.documents.v1", requires=["input:files"], produces=["artifact:documents"])
def parse_documents(ctx: StageContext, *, workers: int = 1, force: bool = False) -> StageResult:
    """Parse changed source files into document trees (unchanged files are skipped)."""
    summary = IngestSummary()
    sources = collect_sources(ctx.inputs)
    todo = sources if force else changed_sources(ctx.store, sources, ctx.config["base_iri"], summary)
    progress = progress_bar("parse") if ctx.show_progress else None
    ctx.artifacts["documents"] = list(parse_sources(todo, limits_from(ctx.config), workers=workers, progress=progress))
    ctx.artifacts["ingest_summary"] = summary
    return StageResult(lines=[f"files to parse: {len(todo)}", f"files unchanged: {summary.unchanged}"])


@stages.register("lexical.write_graphs.v1", requires=["artifact:documents"], produces=["graph:lexical"])
def write_graphs(ctx: StageContext, *, table_row_window: int = 40) -> StageResult:
    """Write one lexical named graph per parsed document, replacing the previous version."""
    summary: IngestSummary = ctx.artifacts.get("ingest_summary", IngestSummary())
    config = ctx.config.with_values(ingest__table_row_window=table_row_window)
    write_lexical(ctx.store, ctx.artifacts.get("documents", []), config, summary)
    return StageResult(lines=summary.lines(), failures=summary.failures)
