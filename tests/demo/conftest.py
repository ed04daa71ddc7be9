"""Demo-programme fixtures: the scale-1 programme is generated once per test session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kb.demo.generate import generate


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "program"
    generate(out, seed=7, scale=1)
    return out


@pytest.fixture(scope="session")
def ground_truth(demo_dir: Path) -> dict[str, Any]:
    return json.loads((demo_dir / "ground_truth.json").read_text(encoding="utf-8"))
