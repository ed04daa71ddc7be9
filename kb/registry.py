"""Registries of named, versioned things (stages); the signature of a stage is its config schema."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from kb.config import Config
from kb.errors import ConfigError, UnknownNameError
from kb.store import GraphStore


@dataclass
class StageContext:
    """What a stage gets: settings, the store, the input paths and artifacts of earlier stages."""

    config: Config
    store: GraphStore
    inputs: list[Path] = field(default_factory=list)
    artifacts: dict[str, Any] = field(default_factory=dict)
    show_progress: bool = False


@dataclass
class StageResult:
    """Summary lines for the CLI and the failures that set the exit status."""

    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


StageFunction = Callable[..., StageResult]


@dataclass(frozen=True)
class StageSpec:
    name: str
    function: StageFunction
    requires: tuple[str, ...]
    produces: tuple[str, ...]
    params: type[BaseModel]
    doc: str


def params_model(name: str, function: StageFunction) -> type[BaseModel]:
    """A strict pydantic model from the stage's keyword-only parameters."""
    fields: dict[str, Any] = {}
    for param in inspect.signature(function).parameters.values():
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[param.name] = (param.annotation, default)
    model_name = "Params_" + name.replace(".", "_")
    return create_model(model_name, __config__=ConfigDict(extra="forbid", strict=False), **fields)


class StageRegistry:
    def __init__(self) -> None:
        self._stages: dict[str, StageSpec] = {}

    def register(
        self, name: str, *, requires: list[str] | None = None, produces: list[str] | None = None
    ) -> Callable[[StageFunction], StageFunction]:
        def wrap(function: StageFunction) -> StageFunction:
            if name in self._stages:
                raise ConfigError(f"stage {name!r} registered twice")
            self._stages[name] = StageSpec(
                name=name,
                function=function,
                requires=tuple(requires or ()),
                produces=tuple(produces or ()),
                params=params_model(name, function),
                doc=(inspect.getdoc(function) or "").split("\n")[0],
            )
            return function

        return wrap

    def get(self, name: str) -> StageSpec:
        if name not in self._stages:
            raise UnknownNameError("stage", name, list(self._stages))
        return self._stages[name]

    def names(self) -> list[str]:
        return sorted(self._stages)

    def validate_params(self, name: str, params: dict[str, Any]) -> dict[str, Any]:
        """Reject unknown or mistyped keys before anything runs."""
        spec = self.get(name)
        try:
            return spec.params(**params).model_dump()
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            raise ConfigError(f"stage {name!r}: {problems}") from exc


stages = StageRegistry()
