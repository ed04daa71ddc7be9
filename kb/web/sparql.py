"""SPARQL 1.1 Protocol: query and update at ``/sparql``, plus the service description.

The handler only parses the protocol form, picks a serialisation and hands the work to
pyoxigraph; results are serialised by pyoxigraph's own writers (see limits.py for how the
time and size limits wrap them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, Response, request
from pyoxigraph import (
    NamedNode,
    QueryBoolean,
    QueryResultsFormat,
    QuerySolutions,
    RdfFormat,
    Triple,
    serialize,
)
from werkzeug.datastructures import MIMEAccept

from kb.errors import QueryError, StoreError
from kb.store.sparql_text import add_using
from kb.web.auth import require_writer
from kb.web.errors import WebError
from kb.web.limits import BoundedBuffer, refuse_remote_access
from kb.web.state import current

blueprint = Blueprint("sparql", __name__)

SOLUTION_TYPES: dict[str, QueryResultsFormat] = {
    "application/sparql-results+json": QueryResultsFormat.JSON,
    "application/json": QueryResultsFormat.JSON,
    "application/sparql-results+xml": QueryResultsFormat.XML,
    "application/xml": QueryResultsFormat.XML,
    "text/xml": QueryResultsFormat.XML,
    "text/csv": QueryResultsFormat.CSV,
    "text/tab-separated-values": QueryResultsFormat.TSV,
}
BOOLEAN_TYPES = {k: v for k, v in SOLUTION_TYPES.items() if v in (QueryResultsFormat.JSON, QueryResultsFormat.XML)}
GRAPH_TYPES: dict[str, RdfFormat] = {
    "text/turtle": RdfFormat.TURTLE,
    "application/n-triples": RdfFormat.N_TRIPLES,
    "application/n-quads": RdfFormat.N_QUADS,
    "application/ld+json": RdfFormat.JSON_LD,
    "application/rdf+xml": RdfFormat.RDF_XML,
    "application/trig": RdfFormat.TRIG,
}
FORM = "application/x-www-form-urlencoded"
SD = "http://www.w3.org/ns/sparql-service-description#"
RDF_TYPE = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")


def negotiate(offered: dict[str, object]) -> str | None:
    """The media type to answer with, or None when the client accepts none of ``offered``."""
    if not request.headers.get("Accept"):
        return next(iter(offered))
    # media-type parameters such as charset=utf-8 must not make a type unacceptable
    accept = MIMEAccept([(value.split(";")[0].strip(), q) for value, q in request.accept_mimetypes])
    return accept.best_match(list(offered))


def not_acceptable(offered: dict[str, object]) -> WebError:
    return WebError(
        f"none of the accepted media types can be produced; available: {', '.join(offered)}",
        status=406, code="KB705",
    )


def content_type(media: str) -> str:
    textual = media.startswith("text/") or media.endswith(("json", "xml", "triples", "quads", "trig"))
    return f"{media}; charset=utf-8" if textual else media


@dataclass
class Operation:
    kind: str  # "query" or "update"
    text: str
    default_graphs: list[str] = field(default_factory=list)
    named_graphs: list[str] = field(default_factory=list)


def _one(values: list[str], name: str) -> str:
    if len(values) != 1:
        raise WebError(f"expected exactly one '{name}' parameter, got {len(values)}", code="KB706")
    return values[0]


def _body_text() -> str:
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        raise WebError(f"request body must be UTF-8, not {charset}", status=415, code="KB707")
    try:
        return request.get_data().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WebError(f"request body is not valid UTF-8: {exc.reason}", code="KB707") from None


def read_operation() -> Operation | None:
    """Parse a protocol request into one query or update; None asks for the service description."""
    args = request.args
    if request.method in ("GET", "HEAD"):
        if "update" in args:
            raise WebError("SPARQL Update must be sent with POST", status=405, code="KB706")
        if "query" not in args:
            return None
        return Operation("query", _one(args.getlist("query"), "query"),
                         args.getlist("default-graph-uri"), args.getlist("named-graph-uri"))
    mimetype = request.mimetype
    if mimetype == FORM:
        form = request.form
        if "query" in form and "update" in form:
            raise WebError("a request carries either 'query' or 'update', not both", code="KB706")
        if "update" in form:
            return Operation("update", _one(form.getlist("update"), "update"),
                             args.getlist("using-graph-uri") + form.getlist("using-graph-uri"),
                             args.getlist("using-named-graph-uri") + form.getlist("using-named-graph-uri"))
        return Operation("query", _one(form.getlist("query"), "query"),
                         args.getlist("default-graph-uri") + form.getlist("default-graph-uri"),
                         args.getlist("named-graph-uri") + form.getlist("named-graph-uri"))
    if mimetype == "application/sparql-query":
        return Operation("query", _body_text(), args.getlist("default-graph-uri"), args.getlist("named-graph-uri"))
    if mimetype == "application/sparql-update":
        return Operation("update", _body_text(), args.getlist("using-graph-uri"), args.getlist("using-named-graph-uri"))
    raise WebError(
        f"unsupported Content-Type {mimetype or '(none)'!r}; use {FORM}, application/sparql-query "
        "or application/sparql-update",
        status=415, code="KB707",
    )


def _graph_nodes(iris: list[str], parameter: str) -> list[NamedNode] | None:
    try:
        return [NamedNode(i) for i in iris] or None
    except ValueError as exc:
        raise WebError(f"{parameter}: not an IRI: {exc}", code="KB706") from None


def run_query(op: Operation) -> Response:
    state = current()
    refuse_remote_access(op.text, state.limits)
    default = _graph_nodes(op.default_graphs, "default-graph-uri")
    named = _graph_nodes(op.named_graphs, "named-graph-uri")
    if named is not None and default is None:
        default = []  # a protocol dataset replaces the whole dataset, default graph included
    base = request.base_url
    # negotiated before the query runs: the pool thread has no request context
    choice = {id(kind): negotiate(kind) for kind in (BOOLEAN_TYPES, SOLUTION_TYPES, GRAPH_TYPES)}

    def work(sink: BoundedBuffer) -> str:
        try:
            result = state.raw.query(op.text, base_iri=base, default_graph=default, named_graphs=named)
        except SyntaxError as exc:
            raise QueryError(f"SPARQL syntax error: {exc}") from None
        offered = (
            BOOLEAN_TYPES if isinstance(result, QueryBoolean)
            else SOLUTION_TYPES if isinstance(result, QuerySolutions) else GRAPH_TYPES
        )
        media = choice[id(offered)]
        try:
            if media is None:
                raise not_acceptable(offered)
            result.serialize(sink, offered[media])  # type: ignore[arg-type]
        finally:
            del result  # pyoxigraph results must be dropped on the thread that made them
        return media

    try:
        media, body = state.runner.run(work)
    except (RuntimeError, OSError) as exc:
        raise StoreError(f"query evaluation failed: {exc}") from None
    return Response(body, content_type=content_type(media))


def run_update(op: Operation) -> Response:
    require_writer()
    state = current()
    refuse_remote_access(op.text, state.limits)
    text = add_using(op.text, op.default_graphs, op.named_graphs)
    state.store.update(f"BASE <{request.base_url}> {text}")  # same line: parser positions stay right
    return Response(status=204)


def service_description() -> Response:
    """SPARQL 1.1 Service Description of this endpoint (no blank nodes: fragment IRIs)."""
    endpoint = NamedNode(request.base_url)
    service = NamedNode(request.base_url + "#service")
    dataset = NamedNode(request.base_url + "#dataset")
    default_graph = NamedNode(request.base_url + "#default-graph")
    sd = lambda name: NamedNode(SD + name)
    triples = [
        Triple(service, RDF_TYPE, sd("Service")),
        Triple(service, sd("endpoint"), endpoint),
        Triple(service, sd("supportedLanguage"), sd("SPARQL11Query")),
        Triple(service, sd("defaultDataset"), dataset),
        Triple(dataset, RDF_TYPE, sd("Dataset")),
        Triple(dataset, sd("defaultGraph"), default_graph),
        Triple(default_graph, RDF_TYPE, sd("Graph")),
    ]
    if current().tokens:
        triples.append(Triple(service, sd("supportedLanguage"), sd("SPARQL11Update")))
    for fmt in sorted({f.iri for f in SOLUTION_TYPES.values()} | {f.iri for f in GRAPH_TYPES.values()}):
        triples.append(Triple(service, sd("resultFormat"), NamedNode(fmt)))
    media = negotiate(GRAPH_TYPES)
    if media is None:
        raise not_acceptable(GRAPH_TYPES)
    body = serialize(triples, format=GRAPH_TYPES[media], prefixes={"sd": SD})
    return Response(body, content_type=content_type(media))


@blueprint.route("/sparql", methods=["GET", "POST"], strict_slashes=False)
def endpoint() -> Response:
    op = read_operation()
    if op is None:
        return service_description()
    return run_update(op) if op.kind == "update" else run_query(op)


@blueprint.route("/update", methods=["POST"])
def update_endpoint() -> Response:
    op = read_operation()
    if op is None or op.kind != "update":
        raise WebError("this endpoint accepts SPARQL Update only", code="KB706")
    return run_update(op)
