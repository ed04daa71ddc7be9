"""Why is the domain layer inconsistent? A minimal inconsistent subset of axioms, found by removal.

QuickXplain (Junker 2004) splits the candidate axioms in halves and drops every half whose removal
keeps the set inconsistent, so a conflict of k axioms among n costs about 2k·log2(n/k) checks.
It runs twice: first over the domain (ABox) triples with the whole ontology as background, then
over the ontology axioms reachable from that ABox core. The check is the fast RL clash test
when RL already sees the inconsistency, and HermiT otherwise; HermiT checks are capped
(``max_checks``) and the answer says whether it is minimal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pyoxigraph import BlankNode, NamedNode, Triple

from kb.vocab import RDF

Axiom = tuple[Triple, ...]
Check = Callable[[list[Triple]], bool]

_TYPE = NamedNode(RDF + "type")
_LOGICAL_PREDICATES = {
    "http://www.w3.org/2000/01/rdf-schema#" + p for p in ("subClassOf", "subPropertyOf", "domain", "range")
} | {
    "http://www.w3.org/2002/07/owl#" + p
    for p in (
        "equivalentClass", "disjointWith", "inverseOf", "equivalentProperty", "propertyDisjointWith",
        "propertyChainAxiom", "disjointUnionOf", "hasKey", "complementOf", "unionOf", "intersectionOf",
    )
}


class BudgetExceeded(Exception):
    """Raised inside the search when the allowed number of checks is used up."""


@dataclass
class Explanation:
    """A (minimal when ``minimal``) set of axioms that together are inconsistent."""

    abox: list[Triple] = field(default_factory=list)
    tbox: list[Axiom] = field(default_factory=list)
    individuals: list[str] = field(default_factory=list)
    checks: int = 0
    checker: str = ""
    minimal: bool = True


class _Counted:
    def __init__(self, check: Check, limit: int) -> None:
        self.check, self.limit, self.calls = check, limit, 0

    def consistent(self, triples: list[Triple]) -> bool:
        if self.calls >= self.limit:
            raise BudgetExceeded
        self.calls += 1
        return self.check(triples)


def _flatten(axioms: Sequence[Axiom]) -> list[Triple]:
    return [t for axiom in axioms for t in axiom]


def quickxplain(background: list[Triple], candidates: Sequence[Axiom], consistent: Callable[[list[Triple]], bool]) -> list[Axiom]:
    """A minimal subset of ``candidates`` that is inconsistent together with ``background``.

    Assumes background + candidates is inconsistent and background alone is consistent.
    """

    def search(base: list[Triple], has_delta: bool, cands: Sequence[Axiom]) -> list[Axiom]:
        if has_delta and not consistent(base):
            return []
        if len(cands) == 1:
            return list(cands)
        half = len(cands) // 2
        first, second = cands[:half], cands[half:]
        core2 = search(base + _flatten(first), bool(first), second)
        core1 = search(base + _flatten(core2), bool(core2), first)
        return core1 + core2

    return search(list(background), False, list(candidates)) if candidates else []


def tbox_axioms(tbox: list[Triple]) -> tuple[list[Triple], list[Axiom]]:
    """Split ontology triples into background (declarations, annotations) and logical axioms.

    An axiom is a triple with a named subject together with the blank-node structure (restriction,
    list) hanging off its object, so removal never leaves half a class expression behind.
    """
    by_subject: dict[BlankNode, list[Triple]] = defaultdict(list)
    for t in tbox:
        if isinstance(t.subject, BlankNode):
            by_subject[t.subject].append(t)

    def closure(node: object, seen: set[BlankNode]) -> list[Triple]:
        if not isinstance(node, BlankNode) or node in seen:
            return []
        seen.add(node)
        out: list[Triple] = []
        for t in by_subject.get(node, []):
            out.append(t)
            out.extend(closure(t.object, seen))
        return out

    background: list[Triple] = []
    axioms: list[Axiom] = []
    covered: set[BlankNode] = set()
    for t in sorted(tbox, key=str):
        if isinstance(t.subject, BlankNode):
            continue
        if t.predicate.value in _LOGICAL_PREDICATES:
            axioms.append((t, *closure(t.object, covered)))
        else:
            background.append(t)
            background.extend(closure(t.object, covered))
    background.extend(t for b, ts in by_subject.items() if b not in covered for t in ts)
    return background, axioms


def _signature(triples: list[Triple]) -> set[str]:
    return {term.value for t in triples for term in (t.subject, t.predicate, t.object) if isinstance(term, NamedNode)}


def relevant_axioms(axioms: list[Axiom], seed: list[Triple]) -> list[Axiom]:
    """Axioms reachable from the seed's terms, following every term an added axiom mentions."""
    signature = _signature(seed)
    chosen: list[Axiom] = []
    rest = list(axioms)
    grew = True
    while grew:
        grew = False
        keep = []
        for axiom in rest:
            if axiom[0].subject.value in signature:  # type: ignore[union-attr]
                chosen.append(axiom)
                signature |= _signature(list(axiom))
                grew = True
            else:
                keep.append(axiom)
        rest = keep
    return sorted(chosen, key=lambda a: str(a[0]))


def explain(tbox: list[Triple], abox: list[Triple], check: Check, *, checker: str, max_checks: int = 400) -> Explanation:
    """ABox core first (ontology as background), then the ontology axioms the core needs."""
    counted = _Counted(check, max_checks)
    background, axioms = tbox_axioms(tbox)
    minimal = True
    # QuickXplain keeps the earliest candidates: asserted types first, so a clash between two
    # asserted types is preferred to one forced through a domain or range axiom
    ordered = sorted(abox, key=lambda t: t.predicate != _TYPE)
    try:
        abox_core = _flatten(quickxplain(tbox, [(t,) for t in ordered], counted.consistent))
    except BudgetExceeded:
        abox_core, minimal = list(abox), False
    module = relevant_axioms(axioms, abox_core)
    fixed = background + abox_core
    try:
        if counted.consistent(fixed + _flatten(module)):
            module = axioms
        tbox_core = quickxplain(fixed, module, counted.consistent)
    except BudgetExceeded:
        tbox_core, minimal = module, False
    individuals = sorted(
        {t.subject.value for t in abox_core if isinstance(t.subject, NamedNode)}
        | {t.object.value for t in abox_core if isinstance(t.object, NamedNode) and t.predicate != _TYPE}
    )
    return Explanation(abox_core, tbox_core, individuals, counted.calls, checker, minimal)
