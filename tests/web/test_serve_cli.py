"""`kb serve` and `kb ingest` as real processes on one embedded store: ingest goes through the server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from kb.store.discovery import FILE_NAME

KB = [sys.executable, "-c", "from kb.cli import main; main()"]


def kb_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("KB_")}


def wait_for(path: Path, process: subprocess.Popen[bytes], timeout_s: float = 60) -> dict[str, str]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if path.is_file():
            return json.loads(path.read_text())
        if process.poll() is not None:
            raise AssertionError(f"kb serve exited: {process.stderr.read().decode() if process.stderr else ''}")
        time.sleep(0.1)
    raise AssertionError("kb serve did not write its discovery file")


@pytest.mark.slow
def test_ingest_while_the_server_holds_the_store(tmp_path: Path, sample_folder: Path) -> None:
    store = tmp_path / "store"
    server = subprocess.Popen([*KB, "serve", "--store", str(store), "--port", "0"], cwd=tmp_path, env=kb_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        info = wait_for(store / FILE_NAME, server)
        assert (store / FILE_NAME).stat().st_mode & 0o077 == 0  # the token file is private
        ask = {"query": "ASK { GRAPH ?g { ?s ?p ?o } }"}
        assert requests.get(info["query_url"], params=ask).json()["boolean"] is False
        refused = requests.post(info["update_url"], data={"update": "CLEAR ALL"})
        assert refused.status_code == 401  # only the discovery file's holder may write
        ingest = subprocess.run([*KB, "ingest", "--store", str(store), str(sample_folder / "TR-2019-014_v4.docx")],
                                cwd=tmp_path, env=kb_env(), capture_output=True, text=True, timeout=120, check=False)
        assert ingest.returncode == 0, ingest.stderr
        assert "documents ingested: 1" in ingest.stdout
        assert requests.get(info["query_url"], params=ask).json()["boolean"] is True
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert not (store / FILE_NAME).exists()
    stats = subprocess.run([*KB, "stats", "--store", str(store)], cwd=tmp_path, env=kb_env(),
                           capture_output=True, text=True, timeout=120, check=False)
    assert stats.returncode == 0, stats.stderr
    assert "documents: 1" in stats.stdout  # written durably into the embedded store by the server
