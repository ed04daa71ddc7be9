"""One JSON error shape for every failure the web layer reports, and no stack trace to clients."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from kb.errors import KBError

log = logging.getLogger(__name__)


class WebError(KBError):
    """A refusal tied to an HTTP status: bad protocol use, missing auth, a limit hit."""

    code = "KB700"

    def __init__(self, message: str, *, status: int = 400, code: str | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.http_status = status
        if code:
            self.code = code


def unauthorized(message: str) -> WebError:
    return WebError(message, status=401, code="KB701", hint="send 'Authorization: Bearer <server.token>'")


def error_response(error: KBError, headers: dict[str, str] | None = None) -> Response:
    response = jsonify(error.to_dict())
    response.status_code = error.http_status
    if error.http_status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="cmc-kb"'
    response.headers.update(headers or {})
    return response


def register_error_handlers(app: Flask) -> None:
    """KBError keeps its status; HTTP errors keep theirs; anything else is a logged 500."""

    @app.errorhandler(KBError)
    def on_kb_error(error: KBError) -> Response:
        return error_response(error)

    @app.errorhandler(HTTPException)
    def on_http_error(error: HTTPException) -> Response:
        status = error.code or 500
        headers = dict(error.get_headers()) if status == 405 else {}
        allow = {"Allow": headers["Allow"]} if "Allow" in headers else {}
        return error_response(WebError(error.description or error.name, status=status, code=f"HTTP{status}"), allow)

    @app.errorhandler(Exception)
    def on_unexpected(error: Exception) -> Response:
        log.exception("unhandled error in request")
        return error_response(WebError("internal server error; see the server log", status=500, code="KB000"))
