"""SPARQL 1.1 Graph Store HTTP Protocol at ``/gsp``: ``?graph=IRI``, ``?default``, or direct paths.

A PUT replaces a graph in one transaction (readers see the old or the new graph), which is how a
CLI ingest reaches a running server. POST without a target creates a graph named from the
content hash of the body, so the same upload always gets the same IRI.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, request
from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat, parse

from kb.errors import QueryError
from kb.store.serialize import insert_data
from kb.web.auth import require_writer
from kb.web.errors import WebError
from kb.web.limits import BoundedBuffer
from kb.web.sparql import GRAPH_TYPES, content_type, negotiate, not_acceptable
from kb.web.state import current

blueprint = Blueprint("gsp", __name__)

Target = NamedNode | DefaultGraph | None


def target() -> Target:
    """The graph a request addresses; None is the bare endpoint (POST creates a graph there)."""
    if request.path.rstrip("/") != "/gsp":
        return NamedNode(request.base_url)
    has_default, has_graph = "default" in request.args, "graph" in request.args
    if has_default and has_graph:
        raise WebError("give either ?default or ?graph=, not both", code="KB706")
    if has_default:
        return DefaultGraph()
    if has_graph:
        try:
            return NamedNode(request.args["graph"])
        except ValueError as exc:
            raise WebError(f"graph: not an absolute IRI: {exc}", code="KB706") from None
    return None


def exists(graph: NamedNode | DefaultGraph) -> bool:
    return isinstance(graph, DefaultGraph) or current().raw.contains_named_graph(graph)


def body_parts() -> list[tuple[str, bytes]]:
    """(media type, bytes) of the upload; a multipart/form-data POST carries several files."""
    if request.mimetype == "multipart/form-data":
        return [(f.mimetype, f.read()) for _, f in sorted(request.files.items(multi=True), key=lambda kv: kv[0])]
    return [(request.mimetype, request.get_data())]


def body_quads(graph: NamedNode | DefaultGraph) -> list[Quad]:
    """Parse the request body (triple formats only) into quads of ``graph``."""
    base = graph.value if isinstance(graph, NamedNode) else request.base_url
    quads: list[Quad] = []
    for media, data in body_parts():
        fmt = RdfFormat.from_media_type(media) if media else None
        if fmt is None or fmt.supports_datasets:
            offered = ", ".join(t for t, f in GRAPH_TYPES.items() if not f.supports_datasets)
            raise WebError(f"unsupported graph Content-Type {media or '(none)'!r}; use one of {offered}",
                           status=415, code="KB707")
        try:
            quads.extend(Quad(q.subject, q.predicate, q.object, graph) for q in parse(data, fmt, base_iri=base))
        except (SyntaxError, ValueError) as exc:
            raise QueryError(f"request body is not valid {fmt.name}: {exc}") from None
    return quads


def _triples(quads: list[Quad]) -> str:
    return "".join(f"{q.subject} {q.predicate} {q.object} .\n" for q in quads)


def replace(graph: NamedNode | DefaultGraph, quads: list[Quad]) -> None:
    """One transaction: readers never see the graph half-replaced."""
    store = current().store
    if isinstance(graph, NamedNode):
        store.replace_graph(graph.value, quads)
    else:
        store.update(f"CLEAR DEFAULT ;\nINSERT DATA {{\n{_triples(quads)}}}")


def merge(graph: NamedNode | DefaultGraph, quads: list[Quad]) -> None:
    store = current().store
    if isinstance(graph, NamedNode):
        store.update(insert_data(quads, graph.value))
    else:
        store.update(f"INSERT DATA {{\n{_triples(quads)}}}")


@blueprint.route("/gsp", methods=["GET"], strict_slashes=False)
@blueprint.route("/gsp/<path:_rest>", methods=["GET"])
def get_graph(_rest: str = "") -> Response:
    graph = target()
    if graph is None:
        raise WebError("name a graph with ?graph=IRI or ?default", code="KB706")
    if not exists(graph):
        raise WebError(f"graph <{graph.value}> does not exist", status=404, code="KB708")
    media = negotiate(GRAPH_TYPES)
    if media is None or GRAPH_TYPES[media].supports_datasets:
        raise not_acceptable({t: f for t, f in GRAPH_TYPES.items() if not f.supports_datasets})
    state = current()

    def work(sink: BoundedBuffer) -> None:
        state.raw.dump(sink, GRAPH_TYPES[media], from_graph=graph)

    _, body = state.runner.run(work)
    return Response(body, content_type=content_type(media))


@blueprint.route("/gsp", methods=["PUT", "POST", "DELETE"], strict_slashes=False)
@blueprint.route("/gsp/<path:_rest>", methods=["PUT", "POST", "DELETE"])
def write_graph(_rest: str = "") -> Response:
    require_writer()
    graph = target()
    if graph is None:
        if request.method != "POST":
            raise WebError("name a graph with ?graph=IRI or ?default", code="KB706")
        digest = hashlib.sha256(request.get_data()).hexdigest()[:32]
        graph = NamedNode(f"{request.base_url.rstrip('/')}/{digest}")
        created = not exists(graph)
        replace(graph, body_quads(graph))
        return Response(status=201 if created else 204, headers={"Location": graph.value})
    existed = exists(graph)
    if request.method == "DELETE":
        if isinstance(graph, DefaultGraph):
            current().store.update("CLEAR DEFAULT")
        elif existed:
            current().store.drop_graph(graph.value)
        else:
            raise WebError(f"graph <{graph.value}> does not exist", status=404, code="KB708")
        return Response(status=204)
    (replace if request.method == "PUT" else merge)(graph, body_quads(graph))
    return Response(status=204 if existed else 201)
