"""The `kb` command: a click group; each verb group lives in its own module."""

from __future__ import annotations

import sys

import click

from kb import __version__
from kb.cli.common import run_guarded


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kb")
def cli() -> None:
    """CMC-KB: provenance-anchored knowledge graph for CMC process development."""


def _register() -> None:
    from kb.cli import (
        agent,
        bench,
        check,
        demo,
        evaluate,
        extract,
        ingest,
        mcp,
        query,
        resolve,
        search,
        serve,
    )

    for module in (ingest, query, demo, bench, check, serve, search, agent, resolve, evaluate, extract, mcp):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    """Console entry point: KBError becomes a one-line message and its exit status."""
    sys.exit(run_guarded(cli))
