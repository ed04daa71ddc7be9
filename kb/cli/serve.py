"""`kb serve`: the SPARQL 1.1 endpoint and Graph Store Protocol over the embedded store (waitress)."""

from __future__ import annotations

import os
import secrets
import signal
from pathlib import Path
from types import FrameType

import click

from kb.cli.common import resolve_config, set_option, store_option
from kb.config import Config
from kb.store.discovery import ServerInfo, discovery_path, write_discovery
from kb.store.oxigraph_local import OxigraphLocalStore


def serve(config: Config, host: str, port: int, *, announce: bool = True) -> None:
    """Serve until SIGINT/SIGTERM; while running, CLI writes reach the store through this server."""
    from waitress import create_server

    from kb.web.app import create_app

    store = OxigraphLocalStore.from_config(config)
    local_token = secrets.token_urlsafe(32) if config["server.local_writes"] else ""
    app = create_app(config, store, extra_tokens=[local_token] if local_token else [])
    server = create_server(app, host=host, port=port, threads=int(config["server.threads"]), ident="cmc-kb")
    bound_host, bound_port = server.socket.getsockname()[:2]  # type: ignore[union-attr]
    url = f"http://{'127.0.0.1' if bound_host in ('0.0.0.0', '::') else bound_host}:{bound_port}"
    announced: Path | None = None
    if local_token or config["server.token"]:
        announced = write_discovery(Path(config["store.path"]), ServerInfo(
            url=url, query_url=f"{url}/sparql", update_url=f"{url}/sparql", gsp_url=f"{url}/gsp",
            token=local_token or config["server.token"], pid=os.getpid(),
        ))

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    if announce:
        mode = "read-write with a token" if config["server.token"] else "read-only for HTTP clients"
        click.echo(f"serving {config['store.path']} at {url}/sparql ({mode}); Ctrl-C to stop", err=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        if announced is not None and announced == discovery_path(Path(config["store.path"])):
            announced.unlink(missing_ok=True)
        store.close()


@click.command("serve")
@store_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=7879, show_default=True, help="0 picks a free port.")
@click.option("--token", default=None, help="Bearer token for writes (default: server.token, e.g. from $KB_SERVER_TOKEN).")
@set_option
def serve_cmd(store_path: str | None, host: str, port: int, token: str | None, set_values: tuple[str, ...]) -> None:
    """Serve the store over SPARQL 1.1 (query, update, Graph Store Protocol) with waitress."""
    config = resolve_config(store_path, set_values)
    if token:
        config = config.with_values(server__token=token)
    serve(config, host, port)


COMMANDS = [serve_cmd]
