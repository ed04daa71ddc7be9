"""What a reasoner run returns, whichever engine produced it."""

from __future__ import annotations

from dataclasses import dataclass, field

from pyoxigraph import Triple


@dataclass(frozen=True)
class Clash:
    """One inconsistency the engine can localise: an individual and the classes that collide."""

    individual: str
    classes: tuple[str, ...]
    rule: str


@dataclass
class Outcome:
    """Verdict and inferences of one reasoner run over ontology + domain triples."""

    engine: str
    consistent: bool
    inferred: list[Triple] = field(default_factory=list)
    unsatisfiable: list[str] = field(default_factory=list)
    clashes: list[Clash] = field(default_factory=list)
    seconds: float = 0.0
