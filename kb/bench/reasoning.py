"""Reasoner and SHACL benchmarks on synthetic domain graphs of 1k, 10k and 100k individuals.

The generator follows docs/model.md: process steps in a chain (precedes), substances reused
across steps as inputs and outputs, a role individual per input (has role / realized in), one
condition per step, a reification node per input assertion, routes of 10 steps, a mention and a chunk per step and
per substance in 50-step documents. Each run is a child process so its peak memory (the Python
process plus HermiT's JVM, polled with psutil) is its own; a run over its time cap is killed and
recorded with status 'timeout', and one whose memory passes MEMORY_CAP_MIB is killed. The goal figure is the whole `kb check` on about 80k nodes.
"""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

import psutil
from pyoxigraph import Literal, NamedNode, Quad

from kb.bench import Measurement, benchmark
from kb.vocab import (
    CMC,
    DCTERMS,
    DOCO,
    GRAPH_DOMAIN,
    GRAPH_MENTIONS,
    NIF,
    OA,
    OBO,
    PROV,
    RDF,
    SKOS,
    XSD,
    lexical_graph,
)

AREA = "reasoning"
SIZES = (1_000, 10_000, 100_000)
GOAL_NODES = 80_000
TIMEOUT_S = {"hermit": 300.0, "rl": 300.0, "shacl": 300.0, "check": 300.0}
HERMIT_HEAP_MB = 8000
MEMORY_CAP_MIB = 10_000  # a shared machine: a run whose process tree grows past this is killed
BASE = "https://w3id.org/cmc-kb/id/"
ROLES = ("CHEBI_46787", "CHEBI_33893", "CHEBI_35223", "CHEBI_22695")
STEP_CLASSES = (CMC + "ProcessStep", OBO + "CHMO_0001640", OBO + "CHMO_0001532", OBO + "PROCO_0000052")
STEPS_PER_DOC = 50
STEPS_PER_ROUTE = 10  # precedes is transitive: its closure grows with the square of a route's length
INDIVIDUALS_PER_STEP = 5  # step, two roles, one condition, about one new substance


def _iri(path: str) -> NamedNode:
    return NamedNode(BASE + path)


def synthetic_program(individuals: int) -> list[Quad]:
    """A deterministic domain + mentions + lexical dataset with about ``individuals`` individuals."""
    steps = max(1, individuals // INDIVIDUALS_PER_STEP)
    substances = max(3, steps)
    domain, mentions = NamedNode(GRAPH_DOMAIN), NamedNode(GRAPH_MENTIONS)
    rdf_type, label = NamedNode(RDF + "type"), NamedNode(SKOS + "prefLabel")
    has_input, has_output = NamedNode(OBO + "OBI_0000293"), NamedNode(OBO + "OBI_0000299")
    quads: list[Quad] = []
    for s in range(substances):
        sub = _iri(f"entity/substance/s{s}")
        quads += [Quad(sub, rdf_type, NamedNode(OBO + "CHEBI_24431"), domain), Quad(sub, label, Literal(f"substance {s}"), domain)]
    for k in range(steps):
        doc_id = f"{k // STEPS_PER_DOC:016x}"
        graph = NamedNode(lexical_graph(doc_id))
        doc, chunk = _iri(f"doc/{doc_id}"), _iri(f"doc/{doc_id}/chunk/{k % STEPS_PER_DOC}")
        step = _iri(f"entity/step/p{k}")
        inputs = [_iri(f"entity/substance/s{(k + j) % substances}") for j in (0, 1)]
        output = _iri(f"entity/substance/s{(k + 2) % substances}")
        text = f"Step {k}: charge substance {(k) % substances} and substance {(k + 1) % substances}."
        if k % STEPS_PER_DOC == 0:
            quads += [
                Quad(doc, rdf_type, NamedNode(DOCO + "Document"), graph),
                Quad(doc, NamedNode(CMC + "sha256"), Literal(f"{k:064x}"), graph),
                Quad(doc, NamedNode(DCTERMS + "format"), Literal("application/pdf"), graph),
            ]
        quads += [
            Quad(chunk, rdf_type, NamedNode(CMC + "Chunk"), graph),
            Quad(chunk, NamedNode(NIF + "anchorOf"), Literal(text), graph),
            Quad(chunk, NamedNode(NIF + "beginIndex"), Literal(str(k * 100), datatype=NamedNode(XSD + "integer")), graph),
            Quad(chunk, NamedNode(NIF + "endIndex"), Literal(str(k * 100 + len(text)), datatype=NamedNode(XSD + "integer")), graph),
            Quad(chunk, NamedNode(CMC + "page"), Literal(str(1 + k % STEPS_PER_DOC // 5), datatype=NamedNode(XSD + "integer")), graph),
            Quad(chunk, NamedNode(DCTERMS + "isPartOf"), doc, graph),
            Quad(chunk, NamedNode(NIF + "referenceContext"), doc, graph),
        ]
        if k % STEPS_PER_DOC:
            quads.append(Quad(_iri(f"doc/{doc_id}/chunk/{k % STEPS_PER_DOC - 1}"), NamedNode(CMC + "nextChunk"), chunk, graph))
        quads += [
            Quad(step, rdf_type, NamedNode(STEP_CLASSES[k % len(STEP_CLASSES)]), domain),
            Quad(step, label, Literal(f"step {k}"), domain),
            Quad(step, has_output, output, domain),
        ]
        if k % STEPS_PER_ROUTE:
            quads.append(Quad(_iri(f"entity/step/p{k - 1}"), NamedNode(OBO + "BFO_0000063"), step, domain))
        for j, sub in enumerate(inputs):
            role = _iri(f"role/p{k}/s{j}")
            assertion = _iri(f"assertion/p{k}-{j}")
            quads += [
                Quad(step, has_input, sub, domain),
                Quad(role, rdf_type, NamedNode(OBO + ROLES[(k + j) % len(ROLES)]), domain),
                Quad(sub, NamedNode(OBO + "RO_0000087"), role, domain),
                Quad(role, NamedNode(OBO + "BFO_0000054"), step, domain),
                Quad(assertion, rdf_type, NamedNode(RDF + "Statement"), domain),
                Quad(assertion, NamedNode(RDF + "subject"), step, domain),
                Quad(assertion, NamedNode(RDF + "predicate"), has_input, domain),
                Quad(assertion, NamedNode(RDF + "object"), sub, domain),
                Quad(assertion, NamedNode(PROV + "wasDerivedFrom"), _iri(f"doc/{doc_id}/chunk/{k % STEPS_PER_DOC}/mention/{j}"), domain),
            ]
        condition = _iri(f"condition/c{k}")
        quads += [
            Quad(condition, rdf_type, NamedNode(CMC + "Condition"), domain),
            Quad(condition, NamedNode(CMC + "conditionKind"), Literal("temperature"), domain),
            Quad(condition, NamedNode(CMC + "numericValue"), Literal(f"{20 + k % 50}.0", datatype=NamedNode(XSD + "decimal")), domain),
            Quad(condition, NamedNode(CMC + "unit"), Literal("degC"), domain),
            Quad(step, NamedNode(CMC + "hasCondition"), condition, domain),
        ]
        for j, body in enumerate([step, *inputs]):
            mention = _iri(f"doc/{doc_id}/chunk/{k % STEPS_PER_DOC}/mention/{j}")
            target = _iri(f"doc/{doc_id}/chunk/{k % STEPS_PER_DOC}/mention/{j}/target")
            quads += [
                Quad(mention, rdf_type, NamedNode(OA + "Annotation"), mentions),
                Quad(mention, NamedNode(OA + "hasBody"), body, mentions),
                Quad(mention, NamedNode(OA + "hasTarget"), target, mentions),
                Quad(target, NamedNode(OA + "hasSource"), chunk, mentions),
            ]
    return quads


def node_count(quads: list[Quad]) -> int:
    """Distinct IRIs in subject or object position (what 'nodes' means in the goal)."""
    return len({q.subject for q in quads} | {q.object for q in quads if isinstance(q.object, NamedNode)})


def _job(task: str, individuals: int, queue: Any) -> None:
    from kb.ontology import load_module
    from kb.report.check import run_check
    from kb.stages.reason import hermit, reason
    from kb.stages.validate import validate
    from kb.store.oxigraph_local import OxigraphLocalStore

    hermit.JAVA_MEMORY_MB = HERMIT_HEAP_MB
    store = OxigraphLocalStore(None)
    load_module(store)
    quads = synthetic_program(individuals)
    store.raw.extend(quads)
    started = time.perf_counter()
    if task in ("hermit", "rl"):
        result = reason(store, engine=task)
        extra = {"consistent": result.outcome.consistent, "inferred": len(result.outcome.inferred)}
    elif task == "shacl":
        extra = {"results": len(validate(store).results)}
    else:
        extra = {"verdict": run_check(store, engine="rl").report["verdict"]}
    queue.put({"seconds": time.perf_counter() - started, "nodes": node_count(quads), "quads": len(quads), **extra})


def measure(task: str, individuals: int) -> dict[str, Any]:
    """Run one task in a child process; wall time of the task, peak RSS of the process tree."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=_job, args=(task, individuals, queue))
    child.start()
    peak, deadline = 0, time.monotonic() + TIMEOUT_S[task] + 120  # + time to build the store
    tree = psutil.Process(child.pid)
    while child.is_alive() and time.monotonic() < deadline and peak < MEMORY_CAP_MIB * 2**20:
        try:
            rss = tree.memory_info().rss + sum(c.memory_info().rss for c in tree.children(recursive=True))
            peak = max(peak, rss)
        except psutil.Error:
            pass
        child.join(0.2)
    if child.is_alive():
        for proc in tree.children(recursive=True) + [tree]:
            proc.kill()
        child.join()
        status = "timeout" if time.monotonic() >= deadline else f"killed above {MEMORY_CAP_MIB} MiB"
        return {"status": status, "seconds": TIMEOUT_S[task], "peak_mib": peak / 2**20}
    if queue.empty():
        return {"status": f"failed (exit {child.exitcode})", "seconds": 0.0, "peak_mib": peak / 2**20}
    return {"status": "ok", "peak_mib": peak / 2**20, **queue.get()}


def _figures(task: str, label: str, individuals: int, goal: str = "") -> list[Measurement]:
    run = measure(task, individuals)
    params = {"individuals": individuals, **{k: v for k, v in run.items() if k not in ("seconds", "peak_mib")}}
    return [
        Measurement(AREA, f"{label} time", round(run["seconds"], 2), "s", params, goal),
        Measurement(AREA, f"{label} peak memory", round(run["peak_mib"], 1), "MiB", params),
    ]


@benchmark("reasoning")
def reasoning_bench(out: Path) -> list[Measurement]:
    results: list[Measurement] = []
    for size in SIZES:
        results += _figures("rl", "reasoner rl (reasonable)", size)
        results += _figures("hermit", "reasoner hermit (owlready2)", size)
        results += _figures("shacl", "shacl (pyshacl over oxigraph)", size)
    nodes_per_individual = node_count(synthetic_program(1_000)) / 1_000  # mentions, chunks, assertions too
    goal_individuals = int(GOAL_NODES / nodes_per_individual)
    results += _figures("check", "kb check --reasoner rl", goal_individuals, goal=f"< 60 s at about {GOAL_NODES} nodes")
    return results
