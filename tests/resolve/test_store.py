"""Resolution against the real store: read, write, determinism, incremental == full, SHACL, CLI."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from resolve_fixtures import BASE, make_corpus, store_corpus, two_versions

from kb import vocab
from kb.resolve.domain import domain_quads
from kb.resolve.incremental import ResolutionState, stored_documents
from kb.resolve.inputs import read_corpus
from kb.resolve.pipeline import resolve_corpus, write_outcome
from kb.store.oxigraph_local import OxigraphLocalStore

ROOT = Path(__file__).resolve().parents[2]


def export(store: OxigraphLocalStore, graph: str) -> bytes:
    out = io.BytesIO()
    store.export(out, format="nquads", graph=graph)
    return b"\n".join(sorted(out.getvalue().splitlines()))


def test_store_roundtrip_reads_what_extraction_wrote(memory_store: OxigraphLocalStore) -> None:
    corpus = two_versions()
    store_corpus(memory_store, corpus)
    read = read_corpus(memory_store)
    assert read.mentions == corpus.mentions
    assert {c.iri: c.text for c in read.chunks.values()} == {c.iri: c.text for c in corpus.chunks.values()}
    assert {d.series for d in read.documents.values()} == {"TR-1"}


def test_two_full_runs_are_byte_identical(memory_store: OxigraphLocalStore) -> None:
    store_corpus(memory_store, two_versions())
    dumps = []
    for _ in range(2):
        write_outcome(memory_store, resolve_corpus(read_corpus(memory_store), BASE))
        dumps.append((export(memory_store, vocab.GRAPH_DOMAIN), export(memory_store, vocab.GRAPH_RESOLUTION)))
    assert dumps[0] == dumps[1] and dumps[0][0].count(b"\n") > 100


def test_incremental_update_equals_full_rebuild(memory_store: OxigraphLocalStore, tmp_path: Path) -> None:
    corpus = two_versions()
    first = make_corpus({"d1": ("TR-1", "1", [])})
    first_docs = {d: info for d, info in corpus.documents.items() if d.endswith("/d1")}
    store_corpus(memory_store, type(corpus)([m for m in corpus.mentions if "/d1/" in m.chunk],
                                            {k: v for k, v in corpus.chunks.items() if "/d1/" in k}, first_docs))
    state = ResolutionState()
    state.update(memory_store, stored_documents(memory_store))
    state.save(tmp_path / "state.json")
    store_corpus(memory_store, corpus)  # d2 added, d1 unchanged
    state = ResolutionState.load(tmp_path / "state.json")
    state.update(memory_store, [d for d in stored_documents(memory_store) if d.endswith("/d2")])
    incremental = domain_quads(resolve_corpus(state.corpus(), BASE).layer)
    full = domain_quads(resolve_corpus(read_corpus(memory_store), BASE).layer)
    assert incremental == full
    assert first.documents  # the helper builds empty documents too


def test_domain_layer_passes_the_domain_shapes() -> None:
    shapes = ROOT / "shapes" / "domain.ttl"
    ontology = ROOT / "ontologies" / "cmc.ttl"
    if not shapes.is_file() or not ontology.is_file():
        pytest.skip("shapes/domain.ttl or ontologies/cmc.ttl not present")
    import rdflib
    from pyshacl import validate

    data = rdflib.Graph()
    data.parse(ontology)
    text = "\n".join(str(q.triple) + " ." for q in domain_quads(resolve_corpus(two_versions(), BASE).layer))
    data.parse(data=text, format="nt")
    conforms, _, report = validate(data, shacl_graph=rdflib.Graph().parse(shapes), allow_warnings=True)
    assert conforms, report


def test_every_entity_has_a_provenance_path() -> None:
    layer = resolve_corpus(two_versions(), BASE).layer
    anchoring = layer.anchoring()
    assert anchoring["unanchored"] == 0 and anchoring["anchored"] / anchoring["total"] > 0.9


def test_resolve_command_prints_counts(tmp_path: Path) -> None:
    from kb.cli import cli

    store = OxigraphLocalStore(tmp_path / "store")
    store_corpus(store, two_versions())
    store.close()
    result = CliRunner().invoke(cli, ["resolve", "--no-embeddings", "--store", str(tmp_path / "store"), "--log-json", str(tmp_path / "log.json")])
    assert result.exit_code == 0, result.output
    assert "mentions: 36" in result.output and "merges: exact" in result.output and "anchored:" in result.output
    assert '"rule": "synonym"' in (tmp_path / "log.json").read_text()
    state = ["resolve", "--no-embeddings", "--store", str(tmp_path / "store"), "--state", str(tmp_path / "state.json")]
    first, second = CliRunner().invoke(cli, state), CliRunner().invoke(cli, state)
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert first.output == second.output == result.output
