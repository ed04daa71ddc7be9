"""`kb demo`: generate the seeded demo programme (documents plus ground_truth.json)."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("demo")
def demo() -> None:
    """The fictional demo programme used as demo data and as the test oracle."""


@demo.command("generate")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--seed", default=7, show_default=True, help="Seed; the same seed and scale give identical files.")
@click.option("--scale", default=1, show_default=True, help="Number of programmes (about 38 documents each).")
@click.option("--force", is_flag=True, help="Regenerate even if OUT/ground_truth.json matches seed and scale.")
def generate_cmd(out: Path, seed: int, scale: int, force: bool) -> None:
    """Write the demo programme into OUT, with OUT/ground_truth.json."""
    from kb.demo.generate import generate

    result = generate(out, seed=seed, scale=scale, force=force)
    if result.cached:
        click.echo(f"{out}: up to date (seed {seed}, scale {scale}, {result.documents} documents); use --force to rebuild")
        return
    click.echo(f"{out}: {result.documents} documents, {result.pages} pages, ground truth in "
               f"{out / 'ground_truth.json'}; generated in {result.seconds:.1f} s wall, {result.cpu_seconds:.1f} s CPU "
               f"(seed {seed}, scale {scale})")


COMMANDS = [demo]
