"""Flask app factory: the SPARQL endpoint and Graph Store Protocol over one embedded store.

Other areas add their blueprints after ``create_app`` (``app.register_blueprint(bp)``) or pass
them in ``blueprints=``; they reach the store and settings through ``kb.web.state.current()``.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Blueprint, Flask
from flask_cors import CORS

from kb.config import Config
from kb.errors import ConfigError
from kb.store import GraphStore
from kb.web import api, gsp, pages, sparql
from kb.web.errors import register_error_handlers
from kb.web.limits import Limits, QueryRunner
from kb.web.state import EXTENSION, AppState


def create_app(
    config: Config,
    store: GraphStore,
    *,
    extra_tokens: Iterable[str] = (),
    blueprints: Iterable[Blueprint] = (),
) -> Flask:
    """Build the WSGI app over an embedded store.

    Args:
        config: resolved settings (``server.*`` limits and token).
        store: an adapter exposing ``raw`` (the pyoxigraph Store) such as OxigraphLocalStore.
        extra_tokens: further accepted bearer tokens (the private token of the discovery file).
        blueprints: more blueprints to mount (JSON API, web page).

    Raises:
        ConfigError: the store is remote; point SPARQL clients at the remote server instead.
    """
    raw = getattr(store, "raw", None)
    if raw is None:
        raise ConfigError(
            "kb serve needs the embedded store (store.kind=oxigraph)",
            hint="a remote store already has its own SPARQL endpoint: point clients at it",
        )
    limits = Limits.from_config(config)
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = limits.max_body_bytes
    app.json.sort_keys = False  # type: ignore[attr-defined]
    tokens = tuple(t for t in (config["server.token"], *extra_tokens) if t)
    app.extensions[EXTENSION] = AppState(
        config=config, store=store, raw=raw, limits=limits,
        runner=QueryRunner(limits, int(config["server.threads"])), tokens=tokens,
    )
    CORS(app, allow_headers=["Authorization", "Content-Type", "Accept"], expose_headers=["Location"], max_age=600)
    register_error_handlers(app)
    for blueprint in (sparql.blueprint, gsp.blueprint, api.blueprint, pages.blueprint, *blueprints):
        app.register_blueprint(blueprint)
    return app
