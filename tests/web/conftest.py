"""A real waitress server on a loopback port over a real in-memory Oxigraph store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kb.config import Config
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.web.app import create_app
from kb.web.server import BackgroundServer, start_background

TOKEN = "test-token-5"


@pytest.fixture
def serve(config: Config) -> Iterator[Callable[..., BackgroundServer]]:
    """Start a server with settings overridden, e.g. ``serve(**{"server.token": "t"})``."""
    running: list[BackgroundServer] = []

    def start(**overrides: Any) -> BackgroundServer:
        store = OxigraphLocalStore(None)
        cfg = config.with_values(**{k.replace(".", "__"): v for k, v in overrides.items()})
        running.append(start_background(create_app(cfg, store)))
        running[-1].store = store
        return running[-1]

    yield start
    for server in running:
        server.stop()


@pytest.fixture
def live(serve: Callable[..., BackgroundServer]) -> BackgroundServer:
    """Read-write server (token ``TOKEN``) with default limits."""
    return serve(**{"server.token": TOKEN})


@pytest.fixture
def auth() -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}"}
