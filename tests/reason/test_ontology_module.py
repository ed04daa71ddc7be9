"""The OWL module: loads in rdflib and owlready2, declares only real external IRIs, is consistent
with and without PROCO, and loads into stable named graphs."""

from __future__ import annotations

import io
from pathlib import Path

import owlready2
import pytest
import rdflib
from rdflib.namespace import OWL, RDF, RDFS

from kb.ontology import (
    import_ontology,
    load_module,
    module_paths,
    ontology_graph,
    read_triples,
)
from kb.stages.reason.hermit import run_hermit, write_ntriples
from kb.vocab import GRAPH_ONTOLOGY

PROCO = Path(__file__).resolve().parents[2].parent / "shared" / "ontologies" / "proco.owl"
OBO = "http://purl.obolibrary.org/obo/"
CMC = "https://w3id.org/cmc-kb/ontology#"
# BFO / RO terms the module may declare although the PROCO release does not (docs/ontology.md)
ALLOW_LIST = {OBO + "BFO_0000063"}
DECLARED = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)


def needs_proco() -> None:
    if not PROCO.is_file():
        pytest.skip(f"PROCO not found at {PROCO} (../shared/ontologies/proco.owl)")


@pytest.fixture(scope="module")
def module_graph() -> rdflib.Graph:
    graph = rdflib.Graph()
    for path in module_paths():
        graph.parse(path, format="turtle")
    return graph


@pytest.fixture(scope="module")
def proco_graph() -> rdflib.Graph:
    needs_proco()
    graph = rdflib.Graph()
    graph.parse(PROCO, format="xml")
    return graph


def test_module_loads_in_rdflib_without_blank_nodes(module_graph: rdflib.Graph) -> None:
    assert (rdflib.URIRef("https://w3id.org/cmc-kb/ontology"), RDF.type, OWL.Ontology) in module_graph
    assert not [t for t in module_graph if any(isinstance(x, rdflib.BNode) for x in t)]
    for term in ("Chunk", "TableCell", "nextChunk", "Condition", "hasCondition", "ProcessStep", "mentionClass"):
        assert (rdflib.URIRef(CMC + term), RDFS.label, None) in module_graph, term


def test_every_own_lexical_term_of_vocab_is_declared(module_graph: rdflib.Graph) -> None:
    from kb import vocab

    own = {v.value for v in vars(vocab).values() if hasattr(v, "value") and str(v.value).startswith(CMC)}
    declared = {str(s) for kind in DECLARED for s in module_graph.subjects(RDF.type, kind)}
    assert own and own <= declared, sorted(own - declared)


def test_every_external_iri_exists_in_proco(module_graph: rdflib.Graph, proco_graph: rdflib.Graph) -> None:
    external = {s for kind in DECLARED for s in module_graph.subjects(RDF.type, kind) if str(s).startswith(OBO)}
    missing = sorted(str(s) for s in external if (s, RDF.type, None) not in proco_graph and str(s) not in ALLOW_LIST)
    assert external and not missing
    for s in external:  # labels agree with the source (MIREOT: same IRI, same meaning)
        if str(s) in ALLOW_LIST:
            continue
        ours = {str(x).replace("\u2013", "-") for x in module_graph.objects(s, RDFS.label)}
        theirs = {str(x).replace("\u2013", "-") for x in proco_graph.objects(s, RDFS.label)}
        assert ours & theirs, (str(s), ours, theirs)


def test_module_loads_in_owlready2(tmp_path: Path) -> None:
    path = tmp_path / "module.nt"
    write_ntriples([t for p in module_paths() for t in read_triples(p)], path)
    world = owlready2.World()
    onto = world.get_ontology(path.as_uri()).load(format="ntriples")
    step = world[CMC + "ProcessStep"]
    assert step is not None and world[OBO + "OBI_0000011"] in step.is_a
    assert world[OBO + "RO_0000087"].domain == [world[OBO + "BFO_0000004"]]
    assert onto is not None
    world.close()


@pytest.mark.reasoner
def test_module_alone_is_consistent() -> None:
    outcome = run_hermit([t for p in module_paths() for t in read_triples(p)])
    assert outcome.consistent and outcome.unsatisfiable == []


@pytest.mark.reasoner
@pytest.mark.slow
def test_module_with_proco_is_consistent() -> None:
    needs_proco()
    triples = [t for p in module_paths() for t in read_triples(p)] + read_triples(PROCO)
    outcome = run_hermit(triples, java_memory_mb=3000)
    assert outcome.consistent
    own = [c for c in outcome.unsatisfiable if c.startswith((CMC, OBO))]
    assert not [c for c in own if c.startswith(CMC)]


def test_module_and_imports_go_to_their_own_graphs(memory_store) -> None:  # type: ignore[no-untyped-def]
    count = load_module(memory_store)
    assert count > 300 and memory_store.graphs() == [GRAPH_ONTOLOGY]
    needs_proco()
    graph = import_ontology(memory_store, PROCO, name="proco")
    assert graph == ontology_graph("proco") == GRAPH_ONTOLOGY + "/proco"
    first = io.BytesIO()
    memory_store.export(first, graph=graph)
    import_ontology(memory_store, PROCO, name="proco")
    second = io.BytesIO()
    memory_store.export(second, graph=graph)
    assert first.getvalue() == second.getvalue()  # blank nodes get stable labels


def test_bad_ontology_name_and_file_are_clear_errors(tmp_path: Path, memory_store) -> None:  # type: ignore[no-untyped-def]
    from kb.errors import ConfigError, InputFileError

    with pytest.raises(ConfigError, match="ontology name"):
        ontology_graph("../x")
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix : <x> . :a :b", encoding="utf-8")
    with pytest.raises(InputFileError, match="broken.ttl"):
        import_ontology(memory_store, broken)
    assert memory_store.graphs() == []
