"""Registers every built-in stage in one place (importing the modules runs their decorators)."""

from __future__ import annotations

import importlib

BUILTIN_STAGE_MODULES: tuple[str, ...] = (
    "kb.stages.lexical.stage",
    "kb.stages.lexical.versions",
    "kb.stages.extract.stage",
    "kb.resolve.stage",
    "kb.stages.index.stage",
    "kb.stages.reason.stage",
    "kb.stages.validate.shacl",
)


def load_builtins() -> None:
    for module in BUILTIN_STAGE_MODULES:
        importlib.import_module(module)
