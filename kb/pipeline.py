"""Pipelines are data: a TOML file names the stages and their parameters; this runs them."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.builtins import load_builtins
from kb.errors import ConfigError
from kb.registry import StageContext, StageResult, stages


@dataclass
class StageStep:
    key: str
    use: str
    params: dict[str, Any]


@dataclass
class Pipeline:
    name: str
    steps: list[StageStep] = field(default_factory=list)


def load_pipeline(path: Path) -> Pipeline:
    """Read and validate a pipeline file: every stage block, name and parameter is checked."""
    load_builtins()
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read pipeline: {exc}") from exc
    order = data.get("pipeline", {}).get("stages")
    if not isinstance(order, list) or not order:
        raise ConfigError(f"{path}: [pipeline] stages must be a non-empty list")
    blocks = data.get("stages", {})
    steps = []
    for key in order:
        block = dict(blocks.get(key) or {})
        if "use" not in block:
            raise ConfigError(f"{path}: stage {key!r} needs a [stages.{key}] block with 'use'")
        use = block.pop("use")
        steps.append(StageStep(key, use, stages.validate_params(use, block)))
    extra = sorted(set(blocks) - set(order))
    if extra:
        raise ConfigError(f"{path}: [stages.{extra[0]}] is not listed in [pipeline] stages")
    pipeline = Pipeline(name=data["pipeline"].get("name", path.stem), steps=steps)
    check_pipeline(pipeline)
    return pipeline


def check_pipeline(pipeline: Pipeline) -> None:
    """Every stage's requirements are produced by an earlier stage or are pipeline inputs/graphs."""
    available = {"input:files"}
    for step in pipeline.steps:
        spec = stages.get(step.use)
        for need in spec.requires:
            if need.startswith("artifact:") and need not in available:
                raise ConfigError(f"stage {step.key!r} ({step.use}) requires {need}, which no earlier stage produces")
        available.update(spec.produces)


def run_pipeline(pipeline: Pipeline, ctx: StageContext) -> list[tuple[str, StageResult]]:
    """Run the stages in order, each with its validated parameters."""
    results = []
    for step in pipeline.steps:
        spec = stages.get(step.use)
        results.append((step.key, spec.function(ctx, **step.params)))
    return results
