"""Agent tests run on the hand-built two-layer graph of kb.testing."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.config import Config
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.testing import build_two_layer_store


@pytest.fixture
def two_layer_store(sample_folder: Path, config: Config) -> OxigraphLocalStore:
    return build_two_layer_store(sample_folder, config)
