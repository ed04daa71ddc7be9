"""The reason stage: ontology + domain graph in, inferred graph and a verdict out.

Inferred triples go only to ``urn:kb:graph:inferred`` (replaced as a whole), never into the
asserted graphs. An inconsistent domain layer leaves that graph empty (everything follows from a
contradiction) and comes back with an explanation instead of an exception.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from pyoxigraph import NamedNode, Quad, Triple

from kb.errors import UnknownNameError
from kb.registry import StageContext, StageResult, stages
from kb.stages.reason.explanations import Explanation, explain
from kb.stages.reason.hermit import hermit_consistent, run_hermit
from kb.stages.reason.inputs import reasoner_input
from kb.stages.reason.outcome import Outcome
from kb.stages.reason.rl import rl_consistent, run_rl
from kb.store.protocol import GraphStore
from kb.vocab import GRAPH_INFERRED

ENGINES: dict[str, Callable[[list[Triple]], Outcome]] = {"hermit": run_hermit, "rl": run_rl}


@dataclass
class ReasonResult:
    """Verdict, inferences and (when inconsistent) the explanation of one reason run."""

    outcome: Outcome
    explanation: Explanation | None
    abox_size: int
    tbox_size: int
    dropped: Counter[str]


def reason(store: GraphStore, *, engine: str = "hermit", max_hermit_checks: int = 40) -> ReasonResult:
    """Run one engine over the stored ontology and domain layer and store what it inferred.

    The explanation search uses the in-process RL check when RL also sees the inconsistency
    (milliseconds per check); otherwise HermiT, one JVM per check, capped at ``max_hermit_checks``.

    Raises:
        UnknownNameError: ``engine`` is not 'hermit' or 'rl'.
        ReasonerError: the engine could not run (e.g. no Java for HermiT).
    """
    if engine not in ENGINES:
        raise UnknownNameError("reasoner", engine, list(ENGINES))
    data = reasoner_input(store)
    outcome = ENGINES[engine](data.triples)
    explanation = None
    if not outcome.consistent:
        seen_by_rl = engine == "rl" or not rl_consistent(data.triples)
        if seen_by_rl:
            explanation = explain(data.tbox, data.abox, rl_consistent, checker="rl")
        else:
            explanation = explain(data.tbox, data.abox, hermit_consistent, checker="hermit", max_checks=max_hermit_checks)
    graph = NamedNode(GRAPH_INFERRED)
    store.replace_graph(GRAPH_INFERRED, [Quad(t.subject, t.predicate, t.object, graph) for t in outcome.inferred])
    return ReasonResult(outcome, explanation, len(data.abox), len(data.tbox), data.dropped)


@stages.register("reason.owl.v1", requires=["graph:ontology", "graph:domain"], produces=["graph:inferred"])
def reason_stage(ctx: StageContext, *, engine: str = "hermit", max_hermit_checks: int = 40) -> StageResult:
    """Reason over the domain layer; an inconsistent layer is a failure with its explanation."""
    result = reason(ctx.store, engine=engine, max_hermit_checks=max_hermit_checks)
    outcome = result.outcome
    lines = [
        f"{outcome.engine}: {'consistent' if outcome.consistent else 'INCONSISTENT'} in {outcome.seconds:.1f} s",
        f"{len(outcome.inferred)} inferred triples in {GRAPH_INFERRED}",
    ]
    failures = []
    if result.explanation is not None:
        failures.append("inconsistent: " + ", ".join(result.explanation.individuals) + " (run 'kb check' for the report)")
    return StageResult(lines=lines, failures=failures)
