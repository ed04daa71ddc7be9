"""How CLI commands find a running `kb serve` that holds the embedded store's lock.

The server writes ``kb-serve.json`` (URLs, process id and a write token, mode 0600) into the
store folder and removes it on exit. `open_store` reads it and talks to the server over SPARQL
Update / Graph Store Protocol instead of opening RocksDB, which the server has locked.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_NAME = "kb-serve.json"


@dataclass(frozen=True)
class ServerInfo:
    url: str
    query_url: str
    update_url: str
    gsp_url: str
    token: str
    pid: int


def discovery_path(store_path: Path) -> Path:
    return Path(store_path) / FILE_NAME


def write_discovery(store_path: Path, info: ServerInfo) -> Path:
    """Write the file readable by the owner only (it holds a write token)."""
    path = discovery_path(store_path)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(asdict(info), fh, indent=2)
    tmp.replace(path)
    return path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def running_server(store_path: Path) -> ServerInfo | None:
    """The server announced for this store, if its process is still alive (stale files are removed)."""
    path = discovery_path(store_path)
    try:
        info = ServerInfo(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None
    if not _alive(info.pid):
        path.unlink(missing_ok=True)
        return None
    return info
