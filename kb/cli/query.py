"""`kb query`: run SPARQL from the command line, as a table, JSON or CSV."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import click
from pyoxigraph import (
    QueryBoolean,
    QueryResultsFormat,
    QuerySolutions,
    QueryTriples,
    RdfFormat,
)

from kb.cli.common import open_configured_store, store_option
from kb.errors import QueryError
from kb.vocab import sparql_prefixes

RESULT_FORMATS = {"json": QueryResultsFormat.JSON, "csv": QueryResultsFormat.CSV, "tsv": QueryResultsFormat.TSV, "xml": QueryResultsFormat.XML}


def read_query(text: str) -> str:
    """Inline SPARQL, or @path to read it from a file; the project's prefixes are always declared."""
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            text = path.read_text()
        except OSError as exc:
            raise QueryError(f"{path}: cannot read query file: {exc.strerror}") from exc
    return sparql_prefixes() + text


def render_table(solutions: QuerySolutions) -> str:
    names = [v.value for v in solutions.variables]
    rows = [[("" if s[n] is None else getattr(s[n], "value", str(s[n]))) for n in names] for s in solutions]
    widths = [min(60, max([len(n)] + [len(r[i]) for r in rows])) for i, n in enumerate(names)]
    line = lambda cells: "  ".join(c[:60].ljust(w) for c, w in zip(cells, widths))
    out = [line(names), line(["-" * w for w in widths])] + [line(r) for r in rows]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


@click.command("query")
@click.argument("sparql")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv", "tsv", "xml"]), default="table", show_default=True)
@store_option
def query_cmd(sparql: str, fmt: str, store_path: str | None) -> None:
    """Run a SPARQL query given inline or as @file.rq."""
    _, store = open_configured_store(store_path)
    try:
        result = store.query(read_query(sparql))
        if isinstance(result, QueryBoolean):
            click.echo("true" if bool(result) else "false")
        elif isinstance(result, QueryTriples):
            buffer = io.BytesIO()
            result.serialize(buffer, RdfFormat.N_TRIPLES)
            sys.stdout.write(buffer.getvalue().decode())
        elif fmt == "table":
            click.echo(render_table(result))
        else:
            buffer = io.BytesIO()
            result.serialize(buffer, RESULT_FORMATS[fmt])
            sys.stdout.write(buffer.getvalue().decode())
    finally:
        store.close()


COMMANDS = [query_cmd]
