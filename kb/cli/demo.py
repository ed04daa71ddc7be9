"""`kb demo`: generate the seeded demo program (documents plus ground_truth.json)."""

from __future__ import annotations

import click


@click.group("demo")
def demo() -> None:
    """The fictional demo program used as demo data and as the test oracle."""


COMMANDS = [demo]
