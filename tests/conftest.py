"""Shared fixtures: real in-memory Oxigraph stores, default config, generated sample documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.config import Config, load_config
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.testing import write_docx, write_pdf

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """Defaults only (no kb.toml, no KB_* environment), store under the test's temp folder."""
    return load_config(toml_path=tmp_path / "absent.toml", env={}, overrides={"store.path": str(tmp_path / "store")})


@pytest.fixture
def memory_store() -> OxigraphLocalStore:
    return OxigraphLocalStore(None)


@pytest.fixture(scope="session")
def sample_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sample")
    write_docx(folder / "TR-2019-014_v4.docx")
    write_pdf(folder / "TR-2019-014_v4.pdf")
    return folder


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repository; tests that need it skip with a clear message."""
    if not SHARED.is_dir():
        pytest.skip(f"shared test data not found at {SHARED} (it sits beside the repository in CI)")
    return SHARED
