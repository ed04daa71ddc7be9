"""`kb ingest`, `kb run`, `kb stats`, `kb export`: getting documents in and the graph out."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kb.cli.common import open_configured_store, set_option, store_option
from kb.pipeline import Pipeline, StageStep, load_pipeline, run_pipeline
from kb.registry import StageContext
from kb.stats import store_stats
from kb.store.serialize import sorted_nquads


def run_and_report(pipeline: Pipeline, paths: tuple[Path, ...], store_path: str | None, set_values: tuple[str, ...]) -> int:
    """Run a pipeline over paths, print per-stage summaries; exit 1 when any file failed."""
    config, store = open_configured_store(store_path, set_values)
    try:
        ctx = StageContext(config=config, store=store, inputs=list(paths), show_progress=sys.stderr.isatty())
        failures: list[str] = []
        for key, result in run_pipeline(pipeline, ctx):
            click.echo(f"[{key}]")
            for line in result.lines:
                click.echo(f"  {line}")
            failures.extend(result.failures)
        for failure in failures:
            click.echo(f"error: {failure}", err=True)
        return 1 if failures else 0
    finally:
        store.close()


@click.command("ingest")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Parser processes.")
@click.option("--force", is_flag=True, help="Re-ingest files even when unchanged.")
@store_option
@set_option
def ingest_cmd(paths: tuple[Path, ...], workers: int, force: bool, store_path: str | None, set_values: tuple[str, ...]) -> int:
    """Ingest files or folders into the lexical layer (one named graph per document)."""
    from kb.builtins import load_builtins

    load_builtins()
    pipeline = Pipeline(
        name="ingest",
        steps=[
            StageStep("parse", "parse.documents.v1", {"workers": workers, "force": force}),
            StageStep("lexical", "lexical.write_graphs.v1", {"table_row_window": 40}),
            StageStep("versions", "lexical.link_versions.v1", {}),
        ],
    )
    return run_and_report(pipeline, paths, store_path, set_values)


@click.command("run")
@click.argument("pipeline_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@store_option
@set_option
def run_cmd(pipeline_file: Path, paths: tuple[Path, ...], store_path: str | None, set_values: tuple[str, ...]) -> int:
    """Run a pipeline file (e.g. pipelines/default.toml) over files or folders."""
    return run_and_report(load_pipeline(pipeline_file), paths, store_path, set_values)


@click.command("stats")
@store_option
def stats_cmd(store_path: str | None) -> None:
    """Counts of documents, sections, chunks, tables and quads per graph kind."""
    _, store = open_configured_store(store_path)
    try:
        for key, value in store_stats(store).items():
            click.echo(f"{key}: {value}")
    finally:
        store.close()


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(["nquads", "trig", "turtle"]), default="nquads", show_default=True)
@click.option("--graph", default=None, help="Export one named graph only (required for turtle).")
@click.option("--sorted/--unsorted", "sort", default=True, show_default=True, help="Sorted N-Quads are byte-comparable.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, help="File (default stdout).")
@store_option
def export_cmd(fmt: str, graph: str | None, sort: bool, output: Path | None, store_path: str | None) -> None:
    """Export the store (or one graph) as N-Quads, TriG or Turtle."""
    _, store = open_configured_store(store_path)
    try:
        sink = output.open("wb") if output else sys.stdout.buffer
        try:
            if fmt == "nquads" and sort:
                from kb.stats import all_quads

                sink.write(sorted_nquads(all_quads(store, graph)))
            else:
                store.export(sink, format=fmt, graph=graph)
        finally:
            if output:
                sink.close()
    finally:
        store.close()


COMMANDS = [ingest_cmd, run_cmd, stats_cmd, export_cmd]
