"""OWL reasoning over the domain layer: HermiT (OWL 2 DL) or the `reasonable` OWL 2 RL path."""

from kb.stages.reason.stage import ENGINES, ReasonResult, reason

__all__ = ["ENGINES", "ReasonResult", "reason"]
