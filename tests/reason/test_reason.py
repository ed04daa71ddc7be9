"""Reasoning over small hand-built domain graphs: verdicts, explanations, the inferred graph."""

from __future__ import annotations

import io

import owlready2
import pytest
from pyoxigraph import NamedNode, RdfFormat

from kb.errors import ReasonerError, UnknownNameError
from kb.ontology import load_module
from kb.stages.reason import reason
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.vocab import GRAPH_DOMAIN, GRAPH_INFERRED

HEADER = """
@prefix obo: <http://purl.obolibrary.org/obo/> .
@prefix id: <https://w3id.org/cmc-kb/id/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix cmc: <https://w3id.org/cmc-kb/ontology#> .
"""
CLEAN = HEADER + """
GRAPH <urn:kb:graph:domain> {
  id:step1 a cmc:ProcessStep ; skos:prefLabel "step 1" ; obo:OBI_0000293 id:thf ; obo:OBI_0000299 id:int1 .
  id:thf a obo:CHEBI_24431 ; skos:prefLabel "THF" ; obo:RO_0000087 id:role1 .
  id:int1 a obo:PROCO_0000030 ; skos:prefLabel "intermediate 1" .
  id:role1 a obo:CHEBI_46787 ; obo:BFO_0000054 id:step1 .
  id:step2 a obo:CHMO_0001640 ; skos:prefLabel "filtration" ; obo:OBI_0000293 id:int1 .
  id:step1 obo:BFO_0000063 id:step2 .
  id:a1 a rdf:Statement ; rdf:subject id:step1 ; rdf:predicate obo:OBI_0000293 ; rdf:object id:thf ;
        prov:wasDerivedFrom id:m1 .
}
"""
BFO = "http://purl.obolibrary.org/obo/"
ENGINES = [pytest.param("hermit", marks=pytest.mark.reasoner), "rl"]


def store_with(memory_store: OxigraphLocalStore, trig: str) -> OxigraphLocalStore:
    load_module(memory_store)
    memory_store.raw.load(trig.encode(), format=RdfFormat.TRIG)
    return memory_store


def graph_bytes(store: OxigraphLocalStore, graph: str) -> bytes:
    out = io.BytesIO()
    store.export(out, format="ntriples", graph=graph)
    return b"".join(sorted(out.getvalue().splitlines(keepends=True)))


@pytest.mark.parametrize("engine", ENGINES)
def test_clean_graph_is_consistent_and_inferences_go_to_their_own_graph(memory_store, engine: str) -> None:  # type: ignore[no-untyped-def]
    store = store_with(memory_store, CLEAN)
    domain_before = graph_bytes(store, GRAPH_DOMAIN)
    result = reason(store, engine=engine)
    assert result.outcome.consistent and result.explanation is None
    assert result.dropped["reification"] == 5  # provenance nodes are not reasoned over
    inferred = graph_bytes(store, GRAPH_INFERRED)
    # step2 is a filtration, so a planned process; the RL path also spells out the superclasses
    assert f"<https://w3id.org/cmc-kb/id/step1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{BFO}".encode() in inferred or engine == "hermit"
    assert graph_bytes(store, GRAPH_DOMAIN) == domain_before
    reason(store, engine=engine)
    assert graph_bytes(store, GRAPH_INFERRED) == inferred  # re-running changes nothing


@pytest.mark.parametrize("engine", ENGINES)
def test_process_that_is_also_a_material_entity_is_inconsistent_with_named_axioms(memory_store, engine: str) -> None:  # type: ignore[no-untyped-def]
    store = store_with(memory_store, CLEAN + HEADER + "GRAPH <urn:kb:graph:domain> { id:step1 a obo:CHEBI_24431 . }")
    result = reason(store, engine=engine)
    assert not result.outcome.consistent
    explanation = result.explanation
    assert explanation is not None and explanation.minimal
    assert explanation.individuals == ["https://w3id.org/cmc-kb/id/step1"]
    assert {(t.predicate.value.rsplit("#")[-1], t.object.value) for t in explanation.abox} == {
        ("type", "https://w3id.org/cmc-kb/ontology#ProcessStep"),
        ("type", BFO + "CHEBI_24431"),
    }
    tbox = {(a[0].subject.value, a[0].predicate.value.rsplit("#")[-1], a[0].object.value) for a in explanation.tbox}
    assert (BFO + "BFO_0000002", "disjointWith", BFO + "BFO_0000003") in tbox
    assert (BFO + "CHEBI_24431", "subClassOf", BFO + "BFO_0000040") in tbox
    assert graph_bytes(store, GRAPH_INFERRED) == b""  # nothing sound to infer from a contradiction


@pytest.mark.parametrize("engine", ENGINES)
def test_input_of_a_device_is_caught_through_the_domain_axiom(memory_store, engine: str) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + """GRAPH <urn:kb:graph:domain> {
      id:reactor a obo:OBI_0000968 ; skos:prefLabel "reactor" ; obo:OBI_0000293 id:thf . }"""
    result = reason(store_with(memory_store, CLEAN + defect), engine=engine)
    assert not result.outcome.consistent and result.explanation is not None
    assert result.explanation.individuals[0] == "https://w3id.org/cmc-kb/id/reactor"
    tbox = {(a[0].subject.value, a[0].predicate.value.rsplit("#")[-1]) for a in result.explanation.tbox}
    assert (BFO + "OBI_0000293", "domain") in tbox


@pytest.mark.parametrize("engine", ENGINES)
def test_untyped_subject_of_an_input_is_inferred_to_be_a_planned_process(memory_store, engine: str) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + "GRAPH <urn:kb:graph:domain> { id:thing obo:OBI_0000293 id:thf . }"
    result = reason(store_with(memory_store, CLEAN + defect), engine=engine)
    assert result.outcome.consistent
    ask = "ASK { GRAPH <urn:kb:graph:inferred> { <https://w3id.org/cmc-kb/id/thing> a <http://purl.obolibrary.org/obo/OBI_0000011> } }"
    assert memory_store.query(ask)
    assert not memory_store.query(ask.replace("urn:kb:graph:inferred", "urn:kb:graph:domain"))


@pytest.mark.reasoner
@pytest.mark.slow
def test_inconsistency_only_hermit_sees_is_explained_with_hermit(memory_store) -> None:  # type: ignore[no-untyped-def]
    # reasoning by cases (a union in a superclass) is outside OWL 2 RL, so RL misses this clash
    trig = HEADER + """@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    GRAPH <urn:kb:graph:ontology/extra> {
      cmc:Solventish a owl:Class ; rdfs:subClassOf _:u .
      _:u a owl:Class ; owl:unionOf ( obo:CHEBI_46787 obo:CHEBI_35223 ) . }
    GRAPH <urn:kb:graph:domain> {
      id:odd a cmc:Solventish , obo:CHEBI_24431 . id:thf a obo:CHEBI_24431 ; skos:prefLabel "THF" . }"""
    result = reason(store_with(memory_store, trig), engine="hermit", max_hermit_checks=8)
    assert not result.outcome.consistent
    explanation = result.explanation
    assert explanation is not None and explanation.checker == "hermit" and explanation.checks <= 8
    assert explanation.individuals == ["https://w3id.org/cmc-kb/id/odd"]
    assert len(explanation.abox) == 2
    assert not explanation.minimal  # the ontology part ran out of checks and is reported whole
    assert any(a[0].subject.value.endswith("#Solventish") for a in explanation.tbox)


def test_unknown_engine_lists_the_available_ones(memory_store) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UnknownNameError, match="available: hermit, rl"):
        reason(memory_store, engine="pellet")


@pytest.mark.reasoner
def test_missing_java_is_an_engine_failure_not_a_verdict(memory_store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(owlready2, "JAVA_EXE", "/nonexistent/java")
    with pytest.raises(ReasonerError, match="HermiT failed") as info:
        reason(store_with(memory_store, CLEAN), engine="hermit")
    assert info.value.exit_status == 3
    assert not memory_store.query(f"ASK {{ GRAPH <{GRAPH_INFERRED}> {{ ?s ?p ?o }} }}")
    assert NamedNode(GRAPH_DOMAIN)


def test_registered_stages_report_failures(memory_store) -> None:  # type: ignore[no-untyped-def]
    import kb.stages.validate  # noqa: F401  (registers validate.shacl.v1)
    from kb.config import load_config
    from kb.registry import StageContext, stages

    store = store_with(memory_store, CLEAN + HEADER + "GRAPH <urn:kb:graph:domain> { id:step1 a obo:CHEBI_24431 . }")
    ctx = StageContext(load_config(env={}), store)
    reasoned = stages.get("reason.owl.v1").function(ctx, engine="rl")
    assert reasoned.failures == ["inconsistent: https://w3id.org/cmc-kb/id/step1 (run 'kb check' for the report)"]
    validated = stages.get("validate.shacl.v1").function(ctx)
    assert any("two BFO categories" in f for f in validated.failures)


@pytest.mark.parametrize("engine", ENGINES)
def test_unsatisfiable_class_is_reported_while_the_data_stays_consistent(memory_store, engine: str) -> None:  # type: ignore[no-untyped-def]
    trig = HEADER + """@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    GRAPH <urn:kb:graph:ontology/extra> { cmc:Odd a owl:Class ; rdfs:subClassOf obo:CHEBI_24431 , obo:OBI_0000011 . }"""
    result = reason(store_with(memory_store, CLEAN + trig), engine=engine)
    assert result.outcome.consistent
    assert result.outcome.unsatisfiable == ["https://w3id.org/cmc-kb/ontology#Odd"]
