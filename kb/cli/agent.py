"""`kb ask`: a question in plain language, an answer with citations (and the trace)."""

from __future__ import annotations

import json

import click

from kb.cli.common import open_configured_store, set_option, store_option


@click.command("ask")
@click.argument("question")
@click.option("--trace", "show_trace", is_flag=True, help="Print the route, tools, SPARQL and timings.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable answer (what the API returns).")
@click.option("--route", type=click.Choice(["domain", "lexical", "hybrid"]), default=None, help="Force a route.")
@store_option
@set_option
def ask_cmd(question: str, show_trace: bool, as_json: bool, route: str | None, store_path: str | None, set_values: tuple[str, ...]) -> None:
    """Answer a question from the knowledge graph, citing document, section, page and quote."""
    from kb.agent.core import Agent
    from kb.retrieval.dense import embed

    config, store = open_configured_store(store_path, set_values)
    try:
        model = config["embedding.model"]
        agent = Agent(store, config, embed=lambda texts: embed(model, texts))
        answer = agent.ask(question, route=route)
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps(answer.to_json(), indent=2, ensure_ascii=False))
        return
    click.echo(answer.text)
    for n, item in enumerate(answer.items, start=1):
        click.echo(f"  {n}. {item.text}")
        for c in item.citations:
            where = ", ".join(filter(None, [c.title, f"v{c.version}" if c.version else "", c.section_path, f"p. {c.page}"]))
            click.echo(f"     [{where}] \"{c.quote}\"")
    if show_trace:
        click.echo("\ntrace:")
        for step in answer.trace:
            click.echo(f"  {step.step} ({step.ms} ms): {json.dumps(step.detail, ensure_ascii=False, default=str)[:2000]}")


COMMANDS = [ask_cmd]
