"""Issue 10 list questions on a small real Oxigraph store: connectivity and exclusivity.

The graph mimics what resolution leaves on the demo program: the first substrate is known only by
a code ('aldehyde 3') while the oxime made from it carries the systematic name, two reports name
the same intermediate differently (the step order still joins them), and a one-off document (a
campaign summary) restates an input of one report series.
"""

from __future__ import annotations

import pytest
from pyoxigraph import RdfFormat, parse

from kb import vocab as V
from kb.agent.core import Agent
from kb.agent.linking import EntityLinker, parent_name, without_stereo
from kb.queries import TemplateRegistry, queries_dir, run_template
from kb.store.oxigraph_local import OxigraphLocalStore

E = "https://w3id.org/cmc-kb/id/entity/"
D = "https://w3id.org/cmc-kb/id/doc/"
DOMAIN = """
@prefix obo: <http://purl.obolibrary.org/obo/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix e: <https://w3id.org/cmc-kb/id/entity/> .
@prefix d: <https://w3id.org/cmc-kb/id/doc/> .
e:ald a obo:CHEBI_24431 ; skos:prefLabel "aldehyde 3" ; skos:altLabel "Compound 3" ; obo:RO_0000087 e:ald-sm .
e:ald-sm a obo:BFO_0000023 ; skos:prefLabel "aldehyde 3 as starting material in Step 1" ; obo:BFO_0000054 e:s1 .
e:nh2oh a obo:CHEBI_24431 ; skos:prefLabel "hydroxylamine hydrochloride" ; obo:RO_0000087 e:nh2oh-r .
e:nh2oh-r a obo:CHEBI_33893 ; skos:prefLabel "hydroxylamine hydrochloride as reagent in Step 1" ; obo:BFO_0000054 e:s1 .
e:oxime a obo:CHEBI_24431 ; skos:prefLabel "(E)-2-chloro-5-methylbenzaldehyde oxime" .
e:nitrile a obo:CHEBI_24431 ; skos:prefLabel "nitrile 5" .
e:int-a a obo:CHEBI_24431 ; skos:prefLabel "RA-Q12" .
e:int-b a obo:CHEBI_24431 ; skos:prefLabel "compound 8" .
e:salt a obo:CHEBI_24431 ; skos:prefLabel "QX-1 hydrochloride" .
e:toluene a obo:CHEBI_24431 ; skos:prefLabel "toluene" .
e:water a obo:CHEBI_24431 ; skos:prefLabel "water" .
e:mtbe a obo:CHEBI_24431 ; skos:prefLabel "MTBE" .
e:s1 a obo:OBI_0000011 ; skos:prefLabel "Step 1" ; obo:OBI_0000293 e:ald , e:nh2oh , e:water ; obo:OBI_0000299 e:oxime ; obo:BFO_0000063 e:s2 .
e:s2 a obo:OBI_0000011 ; skos:prefLabel "Step 2" ; obo:OBI_0000293 e:oxime , e:toluene ; obo:OBI_0000299 e:nitrile ; obo:BFO_0000063 e:s3 .
e:s3 a obo:OBI_0000011 ; skos:prefLabel "Step 3" ; obo:OBI_0000293 e:nitrile ; obo:OBI_0000299 e:int-a ; obo:BFO_0000063 e:s4 .
e:s4 a obo:OBI_0000011 ; skos:prefLabel "Step 4" ; obo:OBI_0000293 e:int-b , e:water , e:mtbe ; obo:OBI_0000299 e:salt .
e:st1 rdf:predicate obo:OBI_0000293 ; rdf:subject e:s1 ; rdf:object e:ald ; dcterms:source d:a1 , d:a2 .
e:st2 rdf:predicate obo:OBI_0000293 ; rdf:subject e:s1 ; rdf:object e:water ; dcterms:source d:a1 .
e:st3 rdf:predicate obo:OBI_0000293 ; rdf:subject e:s2 ; rdf:object e:toluene ; dcterms:source d:a2 .
e:st4 rdf:predicate obo:OBI_0000293 ; rdf:subject e:s4 ; rdf:object e:water ; dcterms:source d:b1 .
e:st5 rdf:predicate obo:OBI_0000293 ; rdf:subject e:s4 ; rdf:object e:mtbe ; dcterms:source d:b1 , d:cs .
e:st6 rdf:predicate obo:OBI_0000293 ; rdf:subject e:s4 ; rdf:object e:int-b ; dcterms:source d:b2 .
"""
DOCUMENTS = {"a1": "TR-2001-001", "a2": "TR-2001-001", "b1": "TR-2001-002", "b2": "TR-2001-002", "cs": "CS-2002-009"}
VERSIONS = """
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix cmc: <https://w3id.org/cmc-kb/ontology#> .
@prefix d: <https://w3id.org/cmc-kb/id/doc/> .
<https://w3id.org/cmc-kb/id/series/a> a cmc:ReportSeries ; dcterms:identifier "TR-2001-001" .
<https://w3id.org/cmc-kb/id/series/b> a cmc:ReportSeries ; dcterms:identifier "TR-2001-002" .
d:a1 dcterms:isVersionOf <https://w3id.org/cmc-kb/id/series/a> .
d:a2 dcterms:isVersionOf <https://w3id.org/cmc-kb/id/series/a> .
d:b1 dcterms:isVersionOf <https://w3id.org/cmc-kb/id/series/b> .
d:b2 dcterms:isVersionOf <https://w3id.org/cmc-kb/id/series/b> .
"""


@pytest.fixture(scope="module")
def store() -> OxigraphLocalStore:
    store = OxigraphLocalStore(None)
    store.add(parse(DOMAIN, format=RdfFormat.TURTLE), graph=V.GRAPH_DOMAIN)
    store.add(parse(VERSIONS, format=RdfFormat.TURTLE), graph=V.GRAPH_VERSIONS)
    for name, identifier in DOCUMENTS.items():
        ttl = f'<{D}{name}> a <http://purl.org/spar/doco/Document> ; <http://purl.org/dc/terms/identifier> "{identifier}" .'
        store.add(parse(ttl, format=RdfFormat.TURTLE), graph=f"urn:kb:graph:lexical/{name}")
    return store


@pytest.fixture(scope="module")
def registry() -> TemplateRegistry:
    return TemplateRegistry.load(queries_dir())


def labels(rows: list[dict[str, object]]) -> list[str]:
    return [row["itemLabel"].value for row in rows]  # type: ignore[attr-defined]


def test_stereodescriptors_and_derivative_names() -> None:
    assert without_stereo("(E)-2-chloro-5-methylbenzaldehyde oxime") == "2-chloro-5-methylbenzaldehyde oxime"
    assert without_stereo("(R,S)-x-amine") == "x-amine" and without_stereo("rac-x-amine") == "x-amine"
    assert without_stereo("ethyl (E)-cinnamate") == "ethyl (E)-cinnamate"
    assert parent_name("(E)-2-chloro-5-methylbenzaldehyde oxime") == "2-chloro-5-methylbenzaldehyde"
    assert parent_name("acetone oxime") is None  # too short a parent to name one compound safely
    assert parent_name("KX-1 hydrochloride") is None  # a salt is no condensation derivative


def test_parent_name_links_to_the_substrate_of_the_step_making_the_derivative(store: OxigraphLocalStore) -> None:
    linker = EntityLinker.from_store(store)
    linked = linker.link("How does 2-chloro-5-methylbenzaldehyde connect to QX-1 hydrochloride?")
    assert [(l.surface, l.entity) for l in linked.entities] == [
        ("2-chloro-5-methylbenzaldehyde", E + "ald"), ("QX-1 hydrochloride", E + "salt")]
    assert linked.entities[0].label == "aldehyde 3" and not linked.entities[0].ambiguous
    # the derivative itself, with or without its stereodescriptor, stays the derivative
    for surface in ("(E)-2-chloro-5-methylbenzaldehyde oxime", "2-chloro-5-methylbenzaldehyde oxime"):
        linked = linker.link(f"Which steps take {surface} as an input?")
        assert [(l.surface, l.entity) for l in linked.entities] == [(surface, E + "oxime")]


def test_no_substrate_no_parent_link() -> None:
    from kb.agent.linking import LabelEntry

    entries = [LabelEntry(E + "oxime", "(E)-2-chloro-5-methylbenzaldehyde oxime", "substance", "(E)-2-chloro-5-methylbenzaldehyde oxime")]
    linked = EntityLinker(entries).link("How does 2-chloro-5-methylbenzaldehyde connect to the oxime?")
    assert all(l.entity != E + "ald" for l in linked.entities)
    assert not EntityLinker(entries).parents


def test_connection_path_lists_steps_and_what_they_make_across_renamed_intermediates(store: OxigraphLocalStore, registry: TemplateRegistry) -> None:
    template = registry.get("connection_path")
    rows = run_template(store, template, {"a": E + "ald", "b": E + "salt"})
    assert labels(rows) == ["Step 1", "(E)-2-chloro-5-methylbenzaldehyde oxime", "Step 2", "nitrile 5",
                            "Step 3", "RA-Q12", "Step 4", "QX-1 hydrochloride"]
    assert labels(run_template(store, template, {"a": E + "nitrile", "b": E + "int-a"})) == ["Step 3", "RA-Q12"]
    assert run_template(store, template, {"a": E + "salt", "b": E + "ald"}) == []  # no way back


def test_exclusivity_compares_report_series_only(store: OxigraphLocalStore, registry: TemplateRegistry) -> None:
    template = registry.get("unique_to_series")
    # water is an input in both series; MTBE also in the campaign summary, which is no report series
    assert labels(run_template(store, template, {"series": "TR-2001-001"})) == ["aldehyde 3", "toluene"]
    assert labels(run_template(store, template, {"series": "TR-2001-002"})) == ["MTBE", "compound 8"]
    # asked about the one-off document itself: MTBE is in report series TR-2001-002 as well
    assert labels(run_template(store, template, {"series": "CS-2002-009"})) == []
    assert run_template(store, template, {"series": "TR-1999-000"}) == []


def test_connectivity_question_end_to_end(store: OxigraphLocalStore, config) -> None:  # type: ignore[no-untyped-def]
    agent = Agent(store, config, search=lambda question, filters, k: [])
    answer = agent.ask("How does 2-chloro-5-methylbenzaldehyde connect to QX-1 hydrochloride?")
    assert answer.route == "domain"
    run = next(s for s in answer.trace if s.step == "domain.run")
    assert run.detail["template"] == "connection_path" and run.detail["params"]["a"] == E + "ald"
    assert [i.text for i in answer.items][:2] == ["Step 1", "(E)-2-chloro-5-methylbenzaldehyde oxime"]
    assert len(answer.items) == 8


def test_a_screen_column_header_makes_no_step_input() -> None:
    """Resolution (kb/resolve/domain.py), which builds the step inputs exclusivity counts: a substance
    whose role only a table's column header names ('Solvent' over a solvent screen) is compared there,
    not charged; the extractor's own step relations ignore such header roles the same way."""
    from kb.resolve.inputs import (
        ROLE_CLASSES,
        ChunkInfo,
        Corpus,
        DocumentInfo,
        LocalMention,
    )
    from kb.resolve.pipeline import resolve_corpus, write_outcome
    from kb.stages.extract.mentions import KIND_CLASSES

    doc = D + "r1"
    prose, table = doc + "/chunk/0", doc + "/chunk/1"
    prose_text, table_text = "Step 2 was run in THF.", "Solvent | Conversion (%)\nTHF | 98.7\nCPME | 81.6"

    def substance(chunk: str, text: str, surface: str, role: str, rule: str) -> list[LocalMention]:
        start = text.index(surface)
        end = start + len(surface)
        return [LocalMention(chunk, start, end, KIND_CLASSES["substance"], surface, "test.substance", "substance"),
                LocalMention(chunk, start, end, ROLE_CLASSES[role], surface, rule, "role_assignment", role)]

    mentions = [LocalMention(prose, 0, 6, KIND_CLASSES["planned_process"], "Step 2", "test.step", "planned_process")]
    mentions += substance(prose, prose_text, "THF", "solvent", "role.solvent")
    mentions += substance(table, table_text, "CPME", "solvent", "role.table_header")
    chunks = {prose: ChunkInfo(prose, doc, prose_text, "2 Step 2: dehydration", 0),
              table: ChunkInfo(table, doc, table_text, "2 Step 2: dehydration > Solvent screen", 1)}
    corpus = Corpus(sorted(mentions), chunks, {doc: DocumentInfo(doc, "TR-2001-003", "1", "TR-2001-003 v1")})
    outcome = resolve_corpus(corpus, "https://w3id.org/cmc-kb/id/")
    inputs = {(outcome.layer.entities[s].label, outcome.layer.entities[o].label)
              for s, p, o in outcome.layer.relations if p == V.HAS_SPECIFIED_INPUT.value}
    assert inputs == {("Step 2", "THF")}
    assert not any("CPME" in label for _, label in outcome.layer.role_individuals.values())
    header_mention = next(m.iri for m in mentions if m.rule == "role.table_header")
    assert outcome.layer.body[header_mention] == ROLE_CLASSES["solvent"]  # still anchored, to the role class

    store = OxigraphLocalStore(None)
    write_outcome(store, outcome)
    store.add(parse(f'<{doc}> <http://purl.org/dc/terms/identifier> "TR-2001-003" .', format=RdfFormat.TURTLE), graph="urn:kb:graph:lexical/r1")
    rows = run_template(store, TemplateRegistry.load(queries_dir()).get("unique_to_series"), {"series": "TR-2001-003"})
    assert labels(rows) == ["THF"]


def test_a_derivative_kept_apart_from_the_step_product_links_through_its_class_word() -> None:
    from kb.agent.linking import LabelEntry

    entries = [LabelEntry(E + "named", "(E)-2-chloro-5-methylbenzaldehyde oxime", "substance", "(E)-2-chloro-5-methylbenzaldehyde oxime"),
               LabelEntry(E + "product", "Oxime 3", "substance", "Oxime 3"), LabelEntry(E + "sm", "SM-3", "substance", "SM-3"),
               LabelEntry(E + "nitrile", "nitrile 5", "substance", "nitrile 5")]
    linker = EntityLinker(entries, substrates={E + "product": {E + "sm"}, E + "nitrile": {E + "product"}})
    linked = linker.link("How does 2-chloro-5-methylbenzaldehyde connect to nitrile 5?")
    assert [(l.surface, l.entity) for l in linked.entities] == [("2-chloro-5-methylbenzaldehyde", E + "sm"), ("nitrile 5", E + "nitrile")]
