"""Server-rendered pages: ask, SPARQL editor, entity, documents, consistency report.

Pages call the same services as the JSON API and render with Jinja (autoescaped). No front-end
build and no CDN: the one stylesheet and the small script are in kb/web/static/.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, render_template, request

from kb.errors import KBError
from kb.report import render_html
from kb.web import lookup
from kb.web.api import api
from kb.web.errors import WebError

blueprint = Blueprint("pages", __name__, template_folder="templates")
CHUNK_IRI = re.compile(r"/doc/([0-9a-f]{16})/chunk/(\d+)$")
EXAMPLE_QUERY = """PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?entity ?label ?type WHERE {
  GRAPH <urn:kb:graph:domain> { ?entity skos:prefLabel ?label ; a ?type }
}
ORDER BY ?label
LIMIT 50"""


def chunk_link(iri: str) -> str:
    """Document page anchor of a chunk IRI (``/documents/<id>#chunk-<n>``), or '' when not a chunk."""
    found = CHUNK_IRI.search(iri)
    return f"/documents/{found.group(1)}#chunk-{found.group(2)}" if found else ""


@blueprint.errorhandler(KBError)
def _error_page(error: KBError) -> tuple[str, int]:
    """People get the error as a page; the JSON API keeps the JSON shape."""
    return render_template("error.html", error=error.to_dict()), error.http_status


@blueprint.app_template_filter("chunk_link")
def _chunk_link(iri: str) -> str:
    return chunk_link(iri)


@blueprint.get("/")
def ask_page() -> str:
    question = request.args.get("q", "").strip()
    answer: dict[str, Any] | None = None
    problem = ""
    if question:
        try:
            answer = api().services.ask(question)
        except KBError as exc:
            problem = exc.message
    numbers: dict[tuple[str, str], int] = {}
    if answer:
        for n, citation in enumerate(answer["citations"], start=1):
            numbers[(citation["chunk"], citation["quote"])] = n
    return render_template("ask.html", question=question, answer=answer, numbers=numbers, problem=problem)


@blueprint.get("/query")
def sparql_page() -> str:
    templates = [t for t in api().services.templates() if not t["params"]]
    return render_template("sparql.html", example=request.args.get("query") or EXAMPLE_QUERY, templates=templates)


@blueprint.get("/entity")
def entity_page() -> str:
    iri = request.args.get("iri", "")
    if not iri:
        raise WebError("iri: give the entity IRI, e.g. /entity?iri=...", code="KB720")
    return render_template("entity.html", entity=lookup.entity(api().services.store, iri))


@blueprint.get("/entities")
def entities_page() -> str:
    text = request.args.get("q", "").strip()
    found = lookup.find_entities(api().services.store, text) if text else []
    return render_template("entities.html", q=text, entities=found)


@blueprint.get("/documents")
def documents_page() -> str:
    return render_template("documents.html", documents=lookup.documents(api().services.store))


def section_tree(sections: list[dict[str, Any]], root: str) -> list[dict[str, Any]]:
    """Nest sections under their parents (the document IRI is the root)."""
    children: dict[str, list[dict[str, Any]]] = {}
    for section in sections:
        children.setdefault(section["parent"], []).append(section)

    def build(parent: str) -> list[dict[str, Any]]:
        return [s | {"children": build(s["iri"])} for s in children.get(parent, [])]

    return build(root)


@blueprint.get("/documents/<doc_id>")
def document_page(doc_id: str) -> str:
    if not re.fullmatch(r"[0-9a-f]{16}", doc_id):
        raise WebError(f"doc_id: not a document id: {doc_id[:40]!r}", code="KB720")
    doc = lookup.document(api().services.store, doc_id)
    return render_template("document.html", doc=doc, tree=section_tree(doc["sections"], doc["iri"]),
                           chunk_index={c["iri"]: c["index"] for c in doc["chunks"]})


@blueprint.get("/report")
def report_page() -> str:
    try:
        report: dict[str, Any] | None = api().services.latest_report()
    except WebError:
        report = None
    return render_template("report.html", report=report)


@blueprint.get("/report/full")
def full_report_page() -> Response:
    return Response(render_html(api().services.latest_report()), mimetype="text/html")
