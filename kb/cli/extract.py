"""`kb extract`: typed mentions with exact spans from every stored chunk into the mentions graph."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.common import open_configured_store, set_option, store_option


@click.command("extract")
@click.option("--json-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write one sorted JSON file of mentions and step relations per document.")
@click.option("--no-progress", is_flag=True, help="Do not show a progress bar.")
@store_option
@set_option
def extract_cmd(json_dir: Path | None, no_progress: bool, store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Extract substances, steps, unit operations, equipment, roles and conditions from all chunks."""
    from kb.progress import progress_bar
    from kb.stages.extract.stage import export_json, extract_store, read_chunks

    _, store = open_configured_store(store_path, set_values)
    try:
        result = extract_store(store, progress=None if no_progress else progress_bar("extract"))
        click.echo(f"chunks: {result.chunks}")
        click.echo(f"mentions: {len(result.mentions)}")
        for kind, count in result.per_class().items():
            click.echo(f"  {kind}: {count}")
        click.echo(f"relations: {len(result.relations)}")
        if json_dir is not None:
            paths = export_json(result, read_chunks(store), json_dir)
            click.echo(f"wrote {len(paths)} JSON files to {json_dir}")
    finally:
        store.close()


COMMANDS = [extract_cmd]
