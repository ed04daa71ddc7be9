"""`kb resolve`: merge mentions into canonical entities and write the domain layer."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.common import open_configured_store, set_option, store_option
from kb.resolve.log import log_json
from kb.resolve.pipeline import run_resolution
from kb.resolve.report import summary_lines


@click.command("resolve")
@click.option("--no-embeddings", is_flag=True, help="Skip the embedding backstop (exact, alias, synonym and role rules only).")
@click.option("--threshold", type=float, default=0.92, show_default=True, help="Cosine threshold of the embedding backstop.")
@click.option("--state", "state_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Incremental: keep per-document mentions in this file and re-read only changed documents.")
@click.option("--log-json", "log_path", type=click.Path(dir_okay=False, path_type=Path), help="Also write the resolution log as JSON.")
@store_option
@set_option
def resolve_cmd(no_embeddings: bool, threshold: float, state_path: Path | None, log_path: Path | None, store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Resolve the mentions graph into urn:kb:graph:domain and urn:kb:graph:resolution."""
    config, store = open_configured_store(store_path, set_values)
    try:
        outcome = run_resolution(store, config, use_embeddings=not no_embeddings, threshold=threshold, state=state_path)
    finally:
        store.close()
    if log_path is not None:
        log_path.write_text(log_json(outcome.resolution, outcome.layer) + "\n")
    for line in summary_lines(outcome.counts()):
        click.echo(line)


COMMANDS = [resolve_cmd]
