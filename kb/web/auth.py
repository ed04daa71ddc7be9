"""Writes need a bearer token; with no token configured the endpoint is read-only."""

from __future__ import annotations

import hmac

from flask import request

from kb.web.errors import WebError, unauthorized
from kb.web.state import current


def require_writer() -> None:
    """Raise 403 on a read-only server, 401 when the request lacks a matching bearer token."""
    tokens = current().tokens
    if not tokens:
        raise WebError("this endpoint is read-only", status=403, code="KB701",
                       hint="start 'kb serve' with server.token set to accept writes")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not given:
        raise unauthorized("writes need a bearer token")
    if not any(hmac.compare_digest(given.strip().encode(), t.encode()) for t in tokens):
        raise unauthorized("bearer token does not match")
