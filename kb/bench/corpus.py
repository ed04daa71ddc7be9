"""The demo program at a given scale, generated once into a cache and run through a pipeline.

Benchmarks share it so each measures its own stage on the same, realistic data.
"""

from __future__ import annotations

from pathlib import Path

from kb.config import Config, load_config
from kb.pipeline import load_pipeline, run_pipeline
from kb.registry import StageContext
from kb.store.oxigraph_local import OxigraphLocalStore

SEED = 7
PIPELINE = Path(__file__).resolve().parents[2] / "pipelines" / "default.toml"


def demo_folder(cache: Path, scale: int) -> Path:
    """The generated program (cached: the generator itself skips an up-to-date folder)."""
    from kb.demo.generate import generate

    folder = cache / f"demo-s{scale}"
    generate(folder, seed=SEED, scale=scale)
    return folder


def demo_store(cache: Path, scale: int, *, pipeline: Path = PIPELINE) -> tuple[OxigraphLocalStore, Config, Path]:
    """An in-memory store holding the program after the full pipeline, with its own index folder."""
    folder = demo_folder(cache, scale)
    config = load_config(overrides={"index.path": str(cache / f"index-s{scale}")})
    store = OxigraphLocalStore(None)
    run_pipeline(load_pipeline(pipeline), StageContext(config=config, store=store, inputs=[folder]))
    return store, config, folder
