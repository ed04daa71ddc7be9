"""CMC-KB as Model Context Protocol tools over stdio, so another agent can use the knowledge base.

The tools mirror the JSON API (kb.web.services and kb.web.lookup do the work): ask, search,
find_entities, entity, list_templates, run_template and a read-only sparql. Every tool is
read-only; the SPARQL tool accepts queries only (pyoxigraph's query parser rejects updates) and
refuses SERVICE, like the HTTP endpoint. Results are JSON with the same fields as the API.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pyoxigraph import QueryBoolean, QuerySolutions

from kb import __version__
from kb.config import Config
from kb.errors import KBError, QueryError
from kb.store import GraphStore
from kb.web import lookup
from kb.web.limits import Limits, refuse_remote_access
from kb.web.services import Services, term_json

MAX_SPARQL_ROWS = 1000
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
INSTRUCTIONS = (
    "CMC-KB answers questions about pharmaceutical process-development (CMC) documents. Prefer `ask` for "
    "plain-language questions: every answer cites chunk IRIs with document, version, section, page and a "
    "verbatim quote; report those citations. Use `search` for passages, `find_entities`/`entity` for the "
    "canonical substances and process steps, `run_template` for the curated SPARQL templates and `sparql` "
    "for anything else (read-only)."
)


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Stdout is the protocol channel: anything a library prints goes to stderr; KBErrors become tool errors."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    except KBError as exc:
        raise ToolError(exc.message + (f" ({exc.hint})" if exc.hint else "")) from None


def sparql_rows(store: GraphStore, limits: Limits, query: str) -> dict[str, Any]:
    """Run a read-only query; SELECT rows in SPARQL JSON term form, ASK as a boolean, graphs as triples."""
    refuse_remote_access(query, limits)
    result = store.query(query)
    if isinstance(result, QueryBoolean):
        return {"boolean": bool(result)}
    variables = [v.value for v in result.variables] if isinstance(result, QuerySolutions) else []
    rows: list[dict[str, Any]] = []
    truncated = False
    for item in result:
        if len(rows) == MAX_SPARQL_ROWS:
            truncated = True
            break
        if variables:
            rows.append({name: term_json(item[name]) for name in variables})
        else:
            rows.append({"subject": term_json(item.subject), "predicate": term_json(item.predicate), "object": term_json(item.object)})
    return {"variables": variables, "rows": rows, "truncated": truncated}


def build_server(config: Config, store: GraphStore) -> MCPServer:
    """The MCP server with CMC-KB's tools bound to one store."""
    services = Services(config, store)
    limits = Limits.from_config(config)
    server: MCPServer = MCPServer("cmc-kb", version=__version__, instructions=INSTRUCTIONS)

    def tool(fn: Callable[..., Any]) -> Callable[..., Any]:
        return server.tool(annotations=READ_ONLY)(fn)

    @tool
    def ask(question: str, route: str | None = None) -> dict[str, Any]:
        """Answer a question about the CMC documents with citations (document, version, section, page, quote) and the trace.

        Args:
            question: the question in plain language (at most 1000 characters).
            route: force 'domain' (SPARQL templates), 'lexical' (passages) or 'hybrid'; default lets the router decide.
        """
        with guarded():
            return services.ask(question, route)

    @tool
    def search(query: str, k: int = 10, filters: dict[str, str] | None = None) -> dict[str, Any]:
        """Ranked passages (keyword + dense retrieval) with citation fields.

        Args:
            query: what to look for.
            k: how many passages (1-100).
            filters: optional metadata filters: document, series, version (e.g. '3..5'), section, kind, language.
        """
        with guarded():
            if not 1 <= k <= 100:
                raise QueryError(f"k: must be between 1 and 100, got {k}")
            return {"query": query, "passages": services.search(query, filters, k)}

    @tool
    def find_entities(text: str) -> dict[str, Any]:
        """Canonical entities (substances, steps, equipment, ...) whose label contains the text."""
        with guarded():
            return {"entities": lookup.find_entities(store, text)}

    @tool
    def entity(iri: str) -> dict[str, Any]:
        """One canonical entity: types, labels, relations, and its mentions with verbatim quotes and locations."""
        with guarded():
            return lookup.entity(store, iri)

    @tool
    def list_templates() -> dict[str, Any]:
        """The curated SPARQL templates with their parameters and example questions."""
        with guarded():
            return {"templates": services.templates()}

    @tool
    def run_template(name: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run a SPARQL template by name with typed parameters (entity/iri parameters take absolute IRIs)."""
        with guarded():
            return services.run_template(name, params or {})

    @tool
    def sparql(query: str) -> dict[str, Any]:
        """Run a read-only SPARQL 1.1 query over all named graphs (at most 1000 rows; updates are refused)."""
        with guarded():
            return sparql_rows(store, limits, query)

    return server


def run_stdio(config: Config) -> None:
    """Open the configured store and serve the tools on stdin/stdout until the client disconnects."""
    from kb.store import open_store

    store = open_store(config)
    try:
        build_server(config, store).run("stdio")
    finally:
        store.close()
