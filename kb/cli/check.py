"""`kb check` (reasoner + SHACL + ontology QC report) and `kb ontology load|import`."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.common import open_configured_store, set_option, store_option
from kb.ontology import import_ontology, load_module
from kb.report import run_check
from kb.stages.reason import ENGINES


@click.command("check")
@store_option
@set_option
@click.option("--reasoner", type=click.Choice(sorted(ENGINES)), default="hermit", show_default=True,
              help="hermit: complete OWL 2 DL (needs Java); rl: OWL 2 RL with `reasonable`, for large graphs.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("report"),
              show_default=True, help="Directory for report.html, report.md, report.json and report.nt.")
def check_cmd(store_path: str | None, set_values: tuple[str, ...], reasoner: str, out_dir: Path) -> int:
    """Reason over the domain layer, validate with SHACL, and write the consistency report.

    Exit status 1 when the domain layer is inconsistent or a Violation is found, 0 otherwise.
    """
    _, store = open_configured_store(store_path, set_values)
    try:
        result = run_check(store, engine=reasoner, out_dir=out_dir)
    finally:
        store.close()
    report = result.report
    click.echo(f"{report['verdict']}: {report['summary']}")
    click.echo(f"report: {out_dir / 'report.html'}")
    return result.exit_status


@click.group("ontology")
def ontology_group() -> None:
    """Load the project's ontology module or import an external ontology into its own graph."""


@ontology_group.command("load")
@store_option
@set_option
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def load_cmd(store_path: str | None, set_values: tuple[str, ...], paths: tuple[Path, ...]) -> None:
    """Replace urn:kb:graph:ontology with ontologies/*.ttl (or the given files)."""
    _, store = open_configured_store(store_path, set_values)
    try:
        count = load_module(store, list(paths) or None)
    finally:
        store.close()
    click.echo(f"loaded {count} triples into urn:kb:graph:ontology")


@ontology_group.command("import")
@store_option
@set_option
@click.option("--name", default=None, help="Graph suffix (default: the file name without extension).")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def import_cmd(store_path: str | None, set_values: tuple[str, ...], name: str | None, path: Path) -> None:
    """Load a full external ontology (e.g. proco.owl) into urn:kb:graph:ontology/<name>."""
    _, store = open_configured_store(store_path, set_values)
    try:
        graph = import_ontology(store, path, name=name)
    finally:
        store.close()
    click.echo(f"imported {path} into {graph}")


COMMANDS = [check_cmd, ontology_group]
