"""`kb search` (ranked passages with citations and highlighted matches) and `kb index build|update`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from kb.cli.common import (
    open_configured_store,
    resolve_config,
    set_option,
    store_option,
)
from kb.retrieval.evaluate import build_questions, evaluate
from kb.retrieval.index import IndexStats, build_index, open_index, update_index
from kb.retrieval.search import FUSIONS, METHODS, Passage, search


def render(rank: int, passage: Passage, *, color: bool) -> str:
    """One passage: rank, score, citation line, then the text with matches emphasised."""
    version = f" v{passage.version}" if passage.version else ""
    report = f"{passage.report_id}{version}: " if passage.report_id else ""
    where = " > ".join(filter(None, [passage.section_path])) or "(no section)"
    head = f"{rank}. [{passage.score:.4f}] {report}{passage.title} | {where} | page {passage.page} | {passage.kind}"
    text, cursor, pieces = passage.text, 0, []
    for start, end in passage.spans:
        pieces.append(text[cursor:start])
        match = text[start:end]
        pieces.append(click.style(match, bold=True, fg="yellow") if color else f"**{match}**")
        cursor = end
    pieces.append(text[cursor:])
    body = "".join(pieces).replace("\n", "\n   ")
    return f"{head}\n   {body}\n   <{passage.iri}>"


@click.command("search")
@click.argument("question")
@click.option("--filter", "-f", "filters", multiple=True, metavar="KEY=VALUE",
              help="document, series, version (4, 3..5), section (path prefix), kind, language.")
@click.option("-k", "k", type=click.IntRange(1, 1000), default=None, help="Passages to show (default retrieval.k).")
@click.option("--method", type=click.Choice(METHODS), default="fused", show_default=True)
@click.option("--fusion", "fusion_kind", type=click.Choice(FUSIONS), default=None, help="Default retrieval.fusion.")
@store_option
@set_option
def search_cmd(question: str, filters: tuple[str, ...], k: int | None, method: str, fusion_kind: str | None,
               store_path: str | None, set_values: tuple[str, ...]) -> int:
    """Ranked passages for a question, with document, section path, page and matches highlighted."""
    config = resolve_config(store_path, set_values)
    passages = search(question, list(filters), k, config=config, method=method, fusion_kind=fusion_kind)
    if not passages:
        click.echo("no passages found")
        return 1
    color = sys.stdout.isatty()
    click.echo("\n\n".join(render(i, p, color=color) for i, p in enumerate(passages, start=1)))
    return 0


@click.group("index")
def index_group() -> None:
    """Build or update the passage retrieval indexes (BM25 + vectors) from the store."""


def report(stats: IndexStats) -> None:
    for line in stats.lines():
        click.echo(line)


@index_group.command("build")
@store_option
@set_option
def build_cmd(store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Rebuild the indexes from every lexical graph in the store."""
    config, store = open_configured_store(store_path, set_values)
    try:
        report(build_index(store, config))
    finally:
        store.close()


@index_group.command("update")
@store_option
@set_option
def update_cmd(store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Index new or replaced documents and drop removed ones (only those are re-read)."""
    config, store = open_configured_store(store_path, set_values)
    try:
        report(update_index(store, config))
    finally:
        store.close()


@index_group.command("evaluate")
@click.argument("ground_truth", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--misses", type=click.IntRange(0, 1000), default=0, help="Also print this many fused misses.")
@click.option("--every", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Use every N-th question only (a deterministic sample, for a quick look).")
@store_option
@set_option
def evaluate_cmd(ground_truth: Path, misses: int, every: int, store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Recall@1/5/10 and MRR per question kind against a demo program's ground_truth.json."""
    config = resolve_config(store_path, set_values)
    questions = build_questions(json.loads(ground_truth.read_text()))[::every]
    report = evaluate(open_index(config), questions, config, keep_misses=misses)
    click.echo(report.table())
    click.echo(f"questions: {report.questions}; without a locatable gold chunk: {report.unlocated or 0}")
    for kind, question, fact in report.misses:
        click.echo(f"miss [{kind}] {question}  <- {fact}")


COMMANDS = [search_cmd, index_group]
