"""GraphStore over any SPARQL 1.1 Query + Update + Graph Store Protocol server (Oxigraph, Fuseki, GraphDB).

Results come back as pyoxigraph objects, like the embedded adapter's: SELECT/ASK answers are
parsed with ``parse_query_results``; CONSTRUCT/DESCRIBE triples are loaded into a scratch
in-memory store and re-queried, which yields a genuine ``QueryTriples``. Bindings are injected as
a VALUES block of N-Triples terms (see sparql_text.inject_values), never by string formatting.
Replacing a graph is one SPARQL Update request, which the server applies as one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

import requests
from pyoxigraph import (
    DefaultGraph,
    NamedNode,
    Quad,
    QueryResultsFormat,
    RdfFormat,
    Store,
    parse,
    parse_query_results,
)

from kb.errors import ConfigError, QueryError, StoreError
from kb.store.oxigraph_local import rdf_format
from kb.store.protocol import QueryResult
from kb.store.serialize import insert_data
from kb.store.sparql_text import inject_values

if TYPE_CHECKING:
    from kb.config import Config
    from kb.store.protocol import Term

ACCEPT = "application/sparql-results+json, application/n-triples;q=0.9"
TIMEOUT_S = 300


class SparqlRemoteStore:
    """A remote SPARQL 1.1 server as the store; selected with ``store.kind = "sparql"``."""

    supports_transactions = True

    def __init__(self, query_url: str, update_url: str, gsp_url: str, *, token: str = "") -> None:
        self.query_url, self.update_url, self.gsp_url = query_url, update_url, gsp_url
        self.session = requests.Session()
        self.auth = {"Authorization": f"Bearer {token}"} if token else {}

    @classmethod
    def from_config(cls, config: Config) -> SparqlRemoteStore:
        urls = {name: config[f"store.{name}"] for name in ("query_url", "update_url", "gsp_url")}
        missing = [f"store.{k}" for k, v in urls.items() if not v]
        if missing:
            raise ConfigError(f"store.kind=sparql needs {', '.join(missing)}")
        return cls(urls["query_url"], urls["update_url"], urls["gsp_url"], token=config["store.token"])

    def _send(self, method: str, url: str, what: str, **kwargs: object) -> requests.Response:
        try:
            response = self.session.request(method, url, timeout=TIMEOUT_S, **kwargs)  # type: ignore[arg-type]
        except requests.RequestException as exc:
            raise StoreError(f"{what}: cannot reach {url}: {exc.__class__.__name__}") from exc
        if response.status_code >= 400:
            detail = " ".join(response.text.split())[:300]
            error = QueryError if response.status_code == 400 else StoreError
            raise error(f"{what}: {url} answered {response.status_code}: {detail}")
        return response

    def query(self, sparql: str, *, bindings: Mapping[str, Term] | None = None) -> QueryResult:
        text = inject_values(sparql, bindings or {})
        response = self._send(
            "POST", self.query_url, "SPARQL query", data=text.encode("utf-8"),
            headers={"Content-Type": "application/sparql-query; charset=utf-8", "Accept": ACCEPT},
        )
        media = response.headers.get("Content-Type", "").split(";")[0].strip()
        results_format = QueryResultsFormat.from_media_type(media)
        if results_format is not None:
            return parse_query_results(response.content, results_format)
        graph_format = RdfFormat.from_media_type(media)
        if graph_format is None:
            raise StoreError(f"SPARQL query: {self.query_url} answered with unsupported Content-Type {media!r}")
        scratch = Store()
        scratch.load(response.content, graph_format)
        return scratch.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")

    def update(self, sparql: str) -> None:
        self._send(
            "POST", self.update_url, "SPARQL update", data=sparql.encode("utf-8"),
            headers={"Content-Type": "application/sparql-update; charset=utf-8", **self.auth},
        )

    def _gsp(self, method: str, graph: str, quads: Iterable[Quad]) -> int:
        lines = [f"{q.subject} {q.predicate} {q.object} .\n" for q in quads]
        self._send(
            method, self.gsp_url, f"Graph Store {method} <{graph}>", params={"graph": graph},
            data="".join(lines).encode("utf-8"),
            headers={"Content-Type": "application/n-triples", **self.auth},
        )
        return len(lines)

    def add(self, quads: Iterable[Quad], *, graph: str) -> int:
        return self._gsp("POST", graph, quads)

    def replace_graph(self, graph: str, quads: Iterable[Quad]) -> int:
        """One SPARQL Update request (DROP + INSERT DATA), which servers apply atomically.

        Not a GSP PUT: Oxigraph's server clears and then loads a PUT graph in two steps.
        """
        batch = list(quads)
        self.update(f"DROP SILENT GRAPH {NamedNode(graph)} ;\n" + insert_data(batch, graph))
        return len(batch)

    def drop_graph(self, graph: str) -> None:
        self.update(f"DROP SILENT GRAPH {NamedNode(graph)}")

    def graphs(self) -> list[str]:
        rows = self.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { } }")
        return sorted(row["g"].value for row in rows if isinstance(row["g"], NamedNode))

    def load(self, path: Path, *, graph: str | None = None, format: str | None = None) -> None:
        fmt = rdf_format(format, path)
        try:
            quads = list(parse(path=str(path), format=fmt))
        except (OSError, SyntaxError) as exc:
            raise StoreError(f"{path}: cannot load: {exc}") from exc
        by_graph: dict[str, list[Quad]] = {}
        for q in quads:
            name = graph or ("" if isinstance(q.graph_name, DefaultGraph) else q.graph_name.value)
            by_graph.setdefault(name, []).append(q)
        for name in sorted(by_graph):
            if name:
                self._gsp("POST", name, by_graph[name])
            else:
                self._post_default(by_graph[name])

    def _post_default(self, quads: list[Quad]) -> None:
        self._send(
            "POST", self.gsp_url, "Graph Store POST (default graph)", params={"default": ""},
            data="".join(f"{q.subject} {q.predicate} {q.object} .\n" for q in quads).encode("utf-8"),
            headers={"Content-Type": "application/n-triples", **self.auth},
        )

    def export(self, out: IO[bytes], *, format: str = "nquads", graph: str | None = None) -> None:
        fmt = rdf_format(format)
        scratch = Store()
        if graph is not None:
            rows = self.query("SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }", bindings={"g": NamedNode(graph)})
            scratch.extend(Quad(r["s"], r["p"], r["o"], NamedNode(graph)) for r in rows)
            scratch.dump(out, fmt, from_graph=NamedNode(graph))
            return
        if fmt not in (RdfFormat.N_QUADS, RdfFormat.TRIG):
            raise StoreError(f"format {format!r} holds one graph: pass a graph, or use nquads/trig")
        rows = self.query("SELECT ?s ?p ?o ?g WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }")
        scratch.extend(Quad(r["s"], r["p"], r["o"], r["g"] or DefaultGraph()) for r in rows)
        scratch.dump(out, fmt)

    def close(self) -> None:
        self.session.close()
