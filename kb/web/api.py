"""The JSON API under ``/api``: ask (plain and streamed), search, entities, documents, templates,
consistency report, ingest jobs, health and version. Documented by openapi.yaml, which also
validates every request before a handler runs (kb.web.openapi).
"""

from __future__ import annotations

import json
import platform
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from flask.blueprints import BlueprintSetupState
from werkzeug.utils import secure_filename

from kb import __version__
from kb.errors import KBError
from kb.web import lookup
from kb.web.auth import require_writer
from kb.web.errors import WebError
from kb.web.jobs import Jobs
from kb.web.openapi import spec, validate_request
from kb.web.services import Services, template_json
from kb.web.state import EXTENSION

blueprint = Blueprint("api", __name__, url_prefix="/api")
API_EXTENSION = "kb.api"
MAX_UPLOAD_FILES = 50
KEEPALIVE_S = 1.0


@dataclass
class ApiState:
    services: Services
    jobs: Jobs


@blueprint.record_once
def _setup(setup: BlueprintSetupState) -> None:
    base = setup.app.extensions[EXTENSION]
    services = Services(base.config, base.store)
    setup.app.extensions[API_EXTENSION] = ApiState(services, Jobs(services))


def api() -> ApiState:
    state: ApiState = current_app.extensions[API_EXTENSION]
    return state


@blueprint.before_request
def _validate() -> None:
    validate_request(request, request.view_args if request.view_args is not None else {})


def accepted(job: Any) -> Response:
    response = jsonify(job.to_json())
    response.status_code = 202
    response.headers["Location"] = f"/api/jobs/{job.id}"
    return response


@blueprint.get("/health")
def health() -> Response:
    services = api().services
    graphs = services.store.graphs()
    manifest = Path(services.config["index.path"]) / "manifest.json"
    index = json.loads(manifest.read_text()) if manifest.is_file() else {}
    return jsonify(ok=True, documents=len(lookup.documents(services.store)), graphs=len(graphs),
                   index={"chunks": index.get("chunks", 0), "vectors": index.get("vectors", 0), "model": index.get("model", "")})


@blueprint.get("/version")
def version() -> Response:
    versions = {"kb": __version__, "python": platform.python_version()}
    for name in ("pyoxigraph", "flask", "rdflib", "pyshacl", "owlready2"):
        try:
            versions[name] = package_version(name)
        except PackageNotFoundError:
            continue
    return jsonify(versions)


@blueprint.get("/openapi.json")
def openapi_document() -> Response:
    return jsonify(spec())


@blueprint.post("/ask")
def ask() -> Response:
    body = request.get_json()
    return jsonify(api().services.ask(body["question"], body.get("route")))


def sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


@blueprint.get("/ask/stream")
def ask_stream() -> Response:
    """Server-sent events: ``step`` for each trace step as the agent takes it, then ``answer``.

    The agent runs on its own thread and hands each step to a queue the response drains;
    comment lines keep the connection alive while a step takes long.
    """
    services = api().services
    question, route = request.args["q"], request.args.get("route")
    events_queue: queue.Queue[tuple[str, Any]] = queue.Queue()
    logger = current_app.logger

    def work() -> None:
        try:
            answer = services.ask(question, route, on_step=lambda step: events_queue.put(("step", step)))
            events_queue.put(("answer", answer))
        except KBError as exc:
            events_queue.put(("error", exc.to_dict()))
        except Exception:
            logger.exception("ask stream failed")
            events_queue.put(("error", WebError("internal server error; see the server log", status=500, code="KB000").to_dict()))

    def events() -> Iterator[str]:
        threading.Thread(target=work, name="kb-ask", daemon=True).start()
        yield sse("started", {"question": question, "route": route})
        while True:
            try:
                kind, payload = events_queue.get(timeout=KEEPALIVE_S)
            except queue.Empty:
                yield ": working\n\n"
                continue
            yield sse(kind, payload)
            if kind in ("answer", "error"):
                return

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@blueprint.get("/search")
def search() -> Response:
    args = request.args
    filters = {k: v for k, v in args.items() if k not in ("q", "k") and v}
    k = int(args["k"]) if "k" in args else None
    passages = api().services.search(args["q"], filters, k)
    return jsonify(query=args["q"], filters=filters, passages=passages)


@blueprint.get("/entities")
def find_entities() -> Response:
    return jsonify(entities=lookup.find_entities(api().services.store, request.args["q"]))


@blueprint.get("/entity")
def get_entity() -> Response:
    iri = request.args["iri"]
    if not iri.isprintable() or any(ch in iri for ch in ' <>"{}|\\^`') or ":" not in iri:
        raise WebError(f"iri: not an absolute IRI: {iri[:80]!r}", code="KB720")
    return jsonify(lookup.entity(api().services.store, iri))


@blueprint.get("/documents")
def list_documents() -> Response:
    return jsonify(documents=lookup.documents(api().services.store))


@blueprint.get("/documents/<doc_id>")
def get_document(doc_id: str) -> Response:
    return jsonify(lookup.document(api().services.store, doc_id))


@blueprint.get("/documents/<doc_id>/chunks/<index>")
def get_chunk(doc_id: str, index: int) -> Response:
    return jsonify(lookup.chunk(api().services.store, doc_id, int(index)))


@blueprint.get("/templates")
def list_templates() -> Response:
    return jsonify(templates=api().services.templates())


@blueprint.get("/templates/<name>")
def get_template(name: str) -> Response:
    return jsonify(template_json(api().services.template(name)))


@blueprint.post("/templates/<name>/run")
def run_template(name: str) -> Response:
    body = request.get_json()
    return jsonify(api().services.run_template(name, body.get("params", {})))


@blueprint.get("/report")
def latest_report() -> Response:
    return jsonify(api().services.latest_report())


@blueprint.post("/report")
def run_check() -> Response:
    require_writer()
    body = request.get_json(silent=True) or {}
    return accepted(api().jobs.check(body.get("engine", "rl")))


@blueprint.post("/ingest")
def ingest() -> Response:
    """Multipart upload (field ``files``); returns a job to poll."""
    require_writer()
    from kb.stages.parse import supported_suffixes

    uploads = request.files.getlist("files")
    if not uploads:
        raise WebError("files: attach at least one file in the multipart field 'files'", code="KB720")
    if len(uploads) > MAX_UPLOAD_FILES:
        raise WebError(f"files: at most {MAX_UPLOAD_FILES} files per upload, got {len(uploads)}", code="KB720")
    files: list[tuple[str, bytes]] = []
    for upload in uploads:
        name = secure_filename(upload.filename or "")
        if not name or Path(name).suffix.lower() not in supported_suffixes():
            raise WebError(f"files: {upload.filename!r} is not a supported file name; supported types: "
                           f"{', '.join(supported_suffixes())}", code="KB720")
        files.append((name, upload.read()))
    return accepted(api().jobs.ingest(files))


@blueprint.get("/jobs/<job_id>")
def get_job(job_id: str) -> Response:
    return jsonify(api().jobs.get(job_id).to_json())
