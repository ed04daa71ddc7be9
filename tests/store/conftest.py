"""Every registered store adapter, ready for the contract suite.

``oxigraph`` is the embedded store in memory; ``sparql`` runs against a real ``oxigraph serve``
process (the `oxigraph` PyPI package) and against CMC-KB's own endpoint, both on loopback.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from kb.config import Config, load_config
from kb.store import GraphStore
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.store.sparql_remote import SparqlRemoteStore
from kb.web.app import create_app
from kb.web.server import start_background

TOKEN = "contract-token"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def oxigraph_binary() -> str | None:
    local = Path(sys.executable).with_name("oxigraph")
    return str(local) if local.exists() else shutil.which("oxigraph")


def wait_until_up(url: str, timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            requests.get(url, params={"query": "ASK {}"}, timeout=1)
            return
        except requests.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError(f"server at {url} did not come up")


@pytest.fixture(scope="session")
def oxigraph_server() -> Iterator[str]:
    """A real `oxigraph serve` on a loopback port, in-memory."""
    binary = oxigraph_binary()
    if binary is None:
        pytest.skip("the `oxigraph` server binary is not installed (pip install oxigraph)")
    port = free_port()
    process = subprocess.Popen([binary, "serve", "--bind", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(f"{url}/query")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def kb_server() -> Iterator[str]:
    """CMC-KB's own endpoint (waitress, in this process) as a remote store."""
    config = load_config(env={}, toml_path=Path("/nonexistent/kb.toml"), overrides={"server.token": TOKEN})
    server = start_background(create_app(config, OxigraphLocalStore(None)), threads=4)
    yield server.url
    server.stop()


def make_store(request: pytest.FixtureRequest, case: str) -> GraphStore:
    """An empty store for an adapter case: ``oxigraph`` or ``sparql@<server>``."""
    if case == "oxigraph":
        return OxigraphLocalStore(None)
    if case == "sparql@oxigraph-serve":
        url = request.getfixturevalue("oxigraph_server")
        store = SparqlRemoteStore(f"{url}/query", f"{url}/update", f"{url}/store")
    elif case == "sparql@kb-serve":
        url = request.getfixturevalue("kb_server")
        store = SparqlRemoteStore(f"{url}/sparql", f"{url}/sparql", f"{url}/gsp", token=TOKEN)
    else:
        raise ValueError(f"unknown adapter case {case!r}")
    store.update("DROP ALL")
    return store


@pytest.fixture
def store_factory(request: pytest.FixtureRequest) -> Callable[[str], GraphStore]:
    return lambda case: make_store(request, case)


@pytest.fixture
def remote_config(config: Config) -> Callable[[str], Config]:
    """Config selecting the remote adapter for a server base URL (oxigraph serve paths)."""
    return lambda url: config.with_values(store__kind="sparql", store__query_url=f"{url}/query",
                                          store__update_url=f"{url}/update", store__gsp_url=f"{url}/store")
