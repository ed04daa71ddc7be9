"""`kb bench`: run the registered benchmarks, write JSON and a PNG plot."""

from __future__ import annotations

from pathlib import Path

import click

from kb.bench import load_benchmarks, write_results
from kb.errors import UnknownNameError


@click.command("bench")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("bench"), show_default=True)
@click.option("--only", multiple=True, help="Run only these benchmarks (repeatable).")
@click.option("--list", "list_only", is_flag=True, help="List the benchmarks and exit.")
def bench_cmd(out: Path, only: tuple[str, ...], list_only: bool) -> None:
    """Measure speed and memory; results merge into OUT/results.json and OUT/results.png."""
    registry = load_benchmarks()
    if list_only:
        for name in sorted(registry):
            click.echo(name)
        return
    for name in only:
        if name not in registry:
            raise UnknownNameError("benchmark", name, list(registry))
    chosen = list(only) or sorted(registry)
    results = []
    for name in chosen:
        click.echo(f"running {name} ...", err=True)
        measured = registry[name](out)
        for m in measured:
            click.echo(f"  {m.area}: {m.name} = {m.value:.4g} {m.unit} {m.params or ''}")
        results.extend(measured)
    path = write_results(out, results, partial=bool(only))
    click.echo(f"wrote {path} and {path.with_suffix('.png')}")


COMMANDS = [bench_cmd]
