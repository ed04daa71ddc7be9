"""Run the app under waitress in a background thread (tests, notebooks) and stop it cleanly."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from flask import Flask
from waitress import create_server

from kb.web.state import EXTENSION


@dataclass
class BackgroundServer:
    url: str
    server: Any
    thread: threading.Thread
    store: Any = None  # the store the app serves, for tests that inspect it directly

    @property
    def sparql(self) -> str:
        return f"{self.url}/sparql"

    @property
    def gsp(self) -> str:
        return f"{self.url}/gsp"

    def stop(self, timeout_s: float = 5) -> None:
        """Stop the loop first, then the workers, then close sockets, so no fd is closed twice.

        Emptying the map ends waitress's loop at its next wake-up (forced by the trigger); only
        then are the listener, connections and trigger closed, from this thread.
        """
        channels = list(self.server._map.values())
        self.server._map.clear()
        self.server.trigger.pull_trigger()
        self.thread.join(timeout=timeout_s)
        self.server.task_dispatcher.shutdown(timeout=timeout_s)
        for channel in channels:
            channel.close()
        state = getattr(self.server.application, "extensions", {}).get(EXTENSION)
        if state is not None:
            state.runner.close()


def start_background(app: Flask, *, host: str = "127.0.0.1", port: int = 0, threads: int = 8) -> BackgroundServer:
    """Serve ``app`` with waitress on a loopback port (0 picks a free one)."""
    server = create_server(app, host=host, port=port, threads=threads, ident="cmc-kb")
    bound = server.socket.getsockname()
    thread = threading.Thread(target=server.run, name="kb-waitress", daemon=True)
    thread.start()
    return BackgroundServer(f"http://{bound[0]}:{bound[1]}", server, thread)
