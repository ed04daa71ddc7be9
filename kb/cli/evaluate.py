"""`kb eval`: the three-tier evaluation over the demo program, with baselines, into a report."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.common import open_configured_store, set_option, store_option
from kb.evaluation.systems import SYSTEMS


@click.command("eval")
@click.option("--ground-truth", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True, help="The demo program's ground_truth.json.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("docs/evaluation"), show_default=True)
@click.option("--bank", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Use this (reviewed) bank.jsonl instead of designing one.")
@click.option("--system", "systems", multiple=True, type=click.Choice(SYSTEMS), help="Systems to run (default: all).")
@click.option("--taxonomy", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None, help="A reviewed Tier-3 CSV to fold into the report.")
@click.option("--seed", type=int, default=7, show_default=True)
@store_option
@set_option
def eval_cmd(ground_truth: Path, out: Path, bank: Path | None, systems: tuple[str, ...], taxonomy: Path | None, seed: int,
             store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Answer the question bank with the router and every baseline; write HTML, Markdown and JSON."""
    from kb.evaluation.harness import evaluate

    config, store = open_configured_store(store_path, set_values)
    try:
        summary = evaluate(store, config, ground_truth, out, bank_path=bank, systems=systems or SYSTEMS, taxonomy=taxonomy, seed=seed)
    finally:
        store.close()
    for name, s in summary.items():
        click.echo(f"{name:8s} tier1 {100 * s['tier1']['rate']:5.1f}%  tier2 {100 * s['tier2']['rate']:5.1f}%  "
                   f"list recall {s['lists']['recall'] if s['lists']['recall'] is not None else float('nan'):.2f}")
    click.echo(f"report: {out / 'report.html'}")


COMMANDS = [eval_cmd]
