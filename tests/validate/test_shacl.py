"""SHACL shapes against small hand-built graphs: each injected defect gets the right diagnosis."""

from __future__ import annotations

import io

import pytest
from pyoxigraph import RdfFormat

from kb.ontology import load_module
from kb.stages.validate import validate
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.vocab import GRAPH_VALIDATION, turtle_prefixes

ID = "https://w3id.org/cmc-kb/id/"
SHAPE = "https://w3id.org/cmc-kb/shapes#"
HEADER = turtle_prefixes() + "@prefix id: <https://w3id.org/cmc-kb/id/> .\n"
CLEAN = HEADER + """
GRAPH <urn:kb:graph:lexical/d1> {
  <https://w3id.org/cmc-kb/id/doc/d1> a doco:Document ; cmc:sha256 "9f2c" ; dcterms:format "application/pdf" .
  <https://w3id.org/cmc-kb/id/doc/d1/section/1> a doco:Section ; dcterms:isPartOf <https://w3id.org/cmc-kb/id/doc/d1> .
  <https://w3id.org/cmc-kb/id/doc/d1/chunk/0> a cmc:Chunk ; nif:anchorOf "Dissolve SM-1 in THF (10 vol) at 20 °C." ;
      nif:beginIndex 10 ; nif:endIndex 50 ; cmc:page 2 ; dcterms:isPartOf <https://w3id.org/cmc-kb/id/doc/d1/section/1> ;
      cmc:nextChunk <https://w3id.org/cmc-kb/id/doc/d1/chunk/1> .
  <https://w3id.org/cmc-kb/id/doc/d1/chunk/1> a cmc:Chunk ; nif:anchorOf "Filter." ;
      nif:beginIndex 52 ; nif:endIndex 59 ; cmc:page 2 ; dcterms:isPartOf <https://w3id.org/cmc-kb/id/doc/d1/section/1> .
}
GRAPH <urn:kb:graph:mentions> {
  id:m1 a oa:Annotation ; oa:hasBody id:step1 . id:m2 a oa:Annotation ; oa:hasBody id:thf .
}
GRAPH <urn:kb:graph:domain> {
  id:step1 a cmc:ProcessStep ; skos:prefLabel "step 1" ; obo:OBI_0000293 id:thf , id:sm1 ; cmc:hasCondition id:c1 , id:c2 .
  id:thf a obo:CHEBI_24431 ; skos:prefLabel "THF" ; obo:RO_0000087 id:role1 .
  id:sm1 a obo:CHEBI_24431 ; skos:prefLabel "SM-1" .
  id:role1 a obo:CHEBI_46787 ; obo:BFO_0000054 id:step1 .
  id:c1 a cmc:Condition ; cmc:conditionKind "temperature" ; cmc:numericValue 20.0 ; cmc:unit "degC" .
  id:c2 a cmc:Condition ; cmc:conditionKind "pH" ; cmc:numericValue 7.0 .
}
"""


def results_for(memory_store: OxigraphLocalStore, trig: str) -> set[tuple[str, str, str]]:
    load_module(memory_store)
    memory_store.raw.load(trig.encode(), format=RdfFormat.TRIG)
    outcome = validate(memory_store)
    return {(r.severity, r.focus.removeprefix(ID), r.shape.removeprefix(SHAPE) + ("/" + r.path.rsplit("#")[-1].rsplit("/")[-1] if r.path else "")) for r in outcome.results}


def test_clean_graph_conforms_and_report_is_stored_without_blank_nodes(memory_store) -> None:  # type: ignore[no-untyped-def]
    assert results_for(memory_store, CLEAN) == set()
    assert memory_store.query(f"ASK {{ GRAPH <{GRAPH_VALIDATION}> {{ ?r a <http://www.w3.org/ns/shacl#ValidationReport> ; <http://www.w3.org/ns/shacl#conforms> true }} }}")


def test_chunk_with_two_parents(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + "GRAPH <urn:kb:graph:lexical/d1> { <https://w3id.org/cmc-kb/id/doc/d1/chunk/1> dcterms:isPartOf <https://w3id.org/cmc-kb/id/doc/d1> . }"
    assert results_for(memory_store, CLEAN + defect) == {("Violation", "doc/d1/chunk/1", "ChunkParent/isPartOf")}


def test_chunk_without_text_offsets_or_page_and_a_reading_order_cycle(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + """GRAPH <urn:kb:graph:lexical/d1> {
      <https://w3id.org/cmc-kb/id/doc/d1/chunk/2> a cmc:Chunk ; dcterms:isPartOf <https://w3id.org/cmc-kb/id/doc/d1> ;
          cmc:nextChunk <https://w3id.org/cmc-kb/id/doc/d1/chunk/0> .
      <https://w3id.org/cmc-kb/id/doc/d1/chunk/1> cmc:nextChunk <https://w3id.org/cmc-kb/id/doc/d1/chunk/2> . }"""
    found = results_for(memory_store, CLEAN + defect)
    assert {("Violation", "doc/d1/chunk/2", f"Chunk{p}") for p in ("Text/anchorOf", "Begin/beginIndex", "End/endIndex", "Page/page")} <= found
    cycle = {focus for sev, focus, shape in found if shape == "ReadingOrderCycle"}
    assert cycle == {"doc/d1/chunk/0", "doc/d1/chunk/1", "doc/d1/chunk/2"}


def test_document_without_hash_and_format(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + "GRAPH <urn:kb:graph:lexical/d2> { <https://w3id.org/cmc-kb/id/doc/d2> a doco:Document . }"
    assert results_for(memory_store, CLEAN + defect) == {
        ("Violation", "doc/d2", "DocumentHash/sha256"),
        ("Violation", "doc/d2", "DocumentFormat/format"),
    }


def test_entity_with_no_provenance_path(memory_store) -> None:  # type: ignore[no-untyped-def]
    # sm1 has no mention but is the input of an anchored step: one hop, so it is fine;
    # water is mentioned nowhere and related to nothing anchored
    defect = HEADER + 'GRAPH <urn:kb:graph:domain> { id:water a obo:CHEBI_24431 ; skos:prefLabel "water" . }'
    assert results_for(memory_store, CLEAN + defect) == {("Violation", "water", "EntityWithoutProvenance")}


def test_entity_with_two_bfo_categories_and_no_label(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + "GRAPH <urn:kb:graph:domain> { id:step1 a obo:CHEBI_24431 . id:thf skos:prefLabel \"THF\" . id:x a obo:OBI_0000968 ; obo:RO_0000057 id:thf . }"
    found = results_for(memory_store, CLEAN + defect)
    assert ("Violation", "step1", "EntityWithTwoCategories") in found
    assert ("Violation", "x", "EntityPrefLabel/prefLabel") in found


def test_condition_without_unit(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + 'GRAPH <urn:kb:graph:domain> { id:c3 a cmc:Condition ; cmc:conditionKind "time" ; cmc:numericValue 2.5 . id:step1 cmc:hasCondition id:c3 . }'
    assert results_for(memory_store, CLEAN + defect) == {("Violation", "c3", "ConditionWithoutUnit")}


def test_input_of_something_that_is_not_a_process(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + "GRAPH <urn:kb:graph:domain> { id:thing obo:OBI_0000293 id:thf . }"
    assert results_for(memory_store, CLEAN + defect) == {("Violation", "thing", "InputSubject")}


def test_role_without_bearer_or_process_and_process_without_input(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + 'GRAPH <urn:kb:graph:domain> { id:role2 a obo:CHEBI_35223 . id:step2 a obo:CHMO_0001640 ; skos:prefLabel "filtration" . } GRAPH <urn:kb:graph:mentions> { id:m3 oa:hasBody id:step2 . }'
    assert results_for(memory_store, CLEAN + defect) == {
        ("Violation", "role2", "RoleWithoutBearer"),
        ("Violation", "role2", "RoleWithoutProcess"),
        ("Warning", "step2", "ProcessInput/OBI_0000293"),
    }


def test_report_graph_is_byte_identical_on_rerun(memory_store) -> None:  # type: ignore[no-untyped-def]
    defect = HEADER + 'GRAPH <urn:kb:graph:domain> { id:water a obo:CHEBI_24431 . }'
    results_for(memory_store, CLEAN + defect)
    first = io.BytesIO()
    memory_store.export(first, format="ntriples", graph=GRAPH_VALIDATION)
    validate(memory_store)
    second = io.BytesIO()
    memory_store.export(second, format="ntriples", graph=GRAPH_VALIDATION)
    assert sorted(first.getvalue().splitlines()) == sorted(second.getvalue().splitlines())
    assert b"_:" not in first.getvalue()


def test_unreadable_shapes_are_an_engine_error(memory_store, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from kb.errors import StageError

    bad = tmp_path / "bad.ttl"
    bad.write_text("not turtle", encoding="utf-8")
    with pytest.raises(StageError, match="bad.ttl"):
        validate(memory_store, shapes=[bad])
