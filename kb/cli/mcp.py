"""`kb mcp`: CMC-KB's tools (ask, search, entities, templates, read-only SPARQL) over MCP stdio."""

from __future__ import annotations

import click

from kb.cli.common import resolve_config, set_option, store_option


@click.command("mcp")
@store_option
@set_option
def mcp_cmd(store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Serve the knowledge base as Model Context Protocol tools on stdin/stdout (for AI agents)."""
    from kb.mcp_server import run_stdio

    run_stdio(resolve_config(store_path, set_values))


COMMANDS = [mcp_cmd]
