"""OWL 2 DL classification and realisation with HermiT, through owlready2 (needs Java).

HermiT is complete for OWL 2 DL but runs in a fresh JVM per call and keeps the whole ABox in
memory; use it up to a few ten thousand individuals, the RL path (rl.py) beyond.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

import owlready2
from owlready2.base import OwlReadyInconsistentOntologyError, OwlReadyJavaError
from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from kb.errors import ReasonerError
from kb.stages.reason.outcome import Outcome
from kb.vocab import OWL

JAVA_MEMORY_MB = 2000  # HermiT's heap (-Xmx); the benchmark raises it for 100k individuals
_INFERENCES = "http://inferrences/"
_NOTHING = OWL + "Nothing"
_IMPORTS = NamedNode(OWL + "imports")


def write_ntriples(triples: Iterable[Triple], path: Path) -> None:
    """N-Triples file for owlready2, without owl:imports: the input already holds the closure and
    owlready2 would otherwise try to download each import."""
    with path.open("w", encoding="utf-8") as fh:
        for t in triples:
            if t.predicate == _IMPORTS:
                continue
            fh.write(f"{t.subject} {t.predicate} {t.object} .\n")


def _term(world: owlready2.World, value: object) -> NamedNode | BlankNode | Literal:
    """owlready2 store ids: negative for blank nodes, positive for IRIs; anything else a value."""
    if isinstance(value, int) and value < 0:
        return BlankNode(f"h{-value}")
    if isinstance(value, int):
        return NamedNode(world._unabbreviate(value))
    return Literal(str(value))


def run_hermit(triples: list[Triple], *, java_memory_mb: int | None = None) -> Outcome:
    """Classify and realise; an inconsistent input is a verdict, not an exception.

    Raises:
        ReasonerError: Java is missing or HermiT failed for another reason.
    """
    owlready2.reasoning.JAVA_MEMORY = java_memory_mb or JAVA_MEMORY_MB
    started = time.perf_counter()
    asserted = set(triples)
    with tempfile.TemporaryDirectory(prefix="kb-hermit-") as tmp:
        source = Path(tmp) / "input.nt"
        write_ntriples(triples, source)
        world = owlready2.World()
        try:
            world.get_ontology(source.as_uri()).load(format="ntriples")
            owlready2.sync_reasoner_hermit(world, infer_property_values=True, debug=0)
        except OwlReadyInconsistentOntologyError:
            return Outcome("hermit", consistent=False, seconds=time.perf_counter() - started)
        except (OwlReadyJavaError, FileNotFoundError) as exc:
            raise ReasonerError(
                f"HermiT failed: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}",
                hint="HermiT needs a Java runtime ('make install' provides one); see docs/ontology.md",
            ) from exc
        inferred: list[Triple] = []
        unsatisfiable: list[str] = []
        for s, p, o in world.get_ontology(_INFERENCES).get_triples():
            subject, predicate, obj = _term(world, s), _term(world, p), _term(world, o)
            if not isinstance(subject, NamedNode) or subject.value.rstrip("/") + "/" == _INFERENCES:
                continue
            if isinstance(obj, NamedNode) and obj.value == _NOTHING:
                unsatisfiable.append(subject.value)
            triple = Triple(subject, predicate, obj)  # type: ignore[arg-type]
            if triple not in asserted and not isinstance(obj, BlankNode):
                inferred.append(triple)
        world.close()
    return Outcome(
        "hermit",
        consistent=True,
        inferred=sorted(set(inferred), key=str),
        unsatisfiable=sorted(set(unsatisfiable)),
        seconds=time.perf_counter() - started,
    )


def hermit_consistent(triples: list[Triple]) -> bool:
    """Consistency check alone (used by the explanation search)."""
    return run_hermit(triples).consistent
