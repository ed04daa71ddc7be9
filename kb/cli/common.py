"""Shared CLI options and the error boundary (message + hint on stderr, no traceback)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from kb.config import Config, load_config
from kb.errors import KBError
from kb.store import GraphStore, open_store

store_option = click.option(
    "--store",
    "store_path",
    default=None,
    help="Store directory (default: $KB_STORE_PATH, else .kb/store).",
)
set_option = click.option(
    "--set",
    "set_values",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a setting, e.g. --set ingest.max_pages=500.",
)


def resolve_config(store_path: str | None, set_values: tuple[str, ...] = ()) -> Config:
    """Config from defaults, kb.toml, env and the command line."""
    overrides: dict[str, Any] = {}
    for item in set_values:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--set")
        overrides[key.strip()] = value
    if store_path:
        overrides["store.path"] = store_path
    return load_config(overrides=overrides)


def open_configured_store(store_path: str | None, set_values: tuple[str, ...] = ()) -> tuple[Config, GraphStore]:
    config = resolve_config(store_path, set_values)
    return config, open_store(config)


def run_guarded(command: Callable[..., Any]) -> int:
    """Run a click command; KBError prints message and hint without a traceback."""
    try:
        status = command.main(standalone_mode=False)
    except KBError as exc:
        click.echo(f"error: {exc.message}", err=True)
        if exc.hint:
            click.echo(f"hint: {exc.hint}", err=True)
        return exc.exit_status
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.ClickException as exc:
        exc.show()
        return 2
    except SystemExit as exc:
        return int(exc.code or 0)
    return status if isinstance(status, int) else 0
