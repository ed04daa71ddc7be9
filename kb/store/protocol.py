"""The one store interface every stage talks to, and the adapter registry.

Values enter queries only through ``bindings=`` (a VALUES block of N-Triples terms built by
``sparql_text.inject_values``), never by string formatting. Capabilities are flags on the adapter, not isinstance checks.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol, runtime_checkable

from pyoxigraph import Quad, QueryBoolean, QuerySolutions, QueryTriples

from kb.errors import UnknownNameError

if TYPE_CHECKING:
    from pyoxigraph import BlankNode, Literal, NamedNode, Triple

    Term = NamedNode | BlankNode | Literal | Triple
    from kb.config import Config

QueryResult = QuerySolutions | QueryBoolean | QueryTriples


@runtime_checkable
class GraphStore(Protocol):
    """What CMC-KB needs from an RDF store."""

    supports_transactions: bool

    def add(self, quads: Iterable[Quad], *, graph: str) -> int:
        """Add quads (their graph is overridden by ``graph``); returns how many were given."""

    def replace_graph(self, graph: str, quads: Iterable[Quad]) -> int:
        """Atomically replace one named graph's content: readers see the old or the new graph."""

    def drop_graph(self, graph: str) -> None:
        """Remove a named graph and everything in it (silently if absent)."""

    def graphs(self) -> list[str]:
        """IRIs of the named graphs, sorted."""

    def query(self, sparql: str, *, bindings: Mapping[str, Term] | None = None) -> QueryResult:
        """Run a SPARQL 1.1 query; ``bindings`` maps variable names to RDF terms.

        Bound variables must appear in the SELECT projection to be returned: use SELECT * or list
        them. Sub-SELECTs do not see them.
        """

    def update(self, sparql: str) -> None:
        """Run a SPARQL 1.1 Update request as one transaction."""

    def load(self, path: Path, *, graph: str | None = None, format: str | None = None) -> None:
        """Bulk-load an RDF file, into ``graph`` when the format carries no graph names."""

    def export(self, out: IO[bytes], *, format: str = "nquads", graph: str | None = None) -> None:
        """Serialise the store (or one graph) to ``out``."""

    def close(self) -> None:
        """Release locks and file handles."""


ADAPTERS: dict[str, str] = {
    "oxigraph": "kb.store.oxigraph_local:OxigraphLocalStore",
    "sparql": "kb.store.sparql_remote:SparqlRemoteStore",
}


def open_store(config: Config) -> GraphStore:
    """Open the store the configuration names; adapters are imported lazily."""
    kind = config["store.kind"]
    if kind not in ADAPTERS:
        raise UnknownNameError("store adapter", kind, list(ADAPTERS))
    if kind == "oxigraph":
        from kb.store.discovery import running_server
        from kb.store.sparql_remote import SparqlRemoteStore

        server = running_server(Path(config["store.path"]))
        if server is not None:  # `kb serve` holds the store's lock: write through it
            return SparqlRemoteStore(server.query_url, server.update_url, server.gsp_url, token=server.token)
    module_name, _, class_name = ADAPTERS[kind].partition(":")
    adapter = getattr(importlib.import_module(module_name), class_name)
    return adapter.from_config(config)
