"""What the blueprints share: the store, the limits, the query pool and the write tokens."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from pyoxigraph import Store

from kb.config import Config
from kb.store import GraphStore
from kb.web.limits import Limits, QueryRunner

EXTENSION = "kb"


@dataclass
class AppState:
    config: Config
    store: GraphStore
    raw: Store
    limits: Limits
    runner: QueryRunner
    tokens: tuple[str, ...]


def current() -> AppState:
    state: AppState = current_app.extensions[EXTENSION]
    return state
