"""The extract stage over a real Oxigraph store: chunks in via SPARQL, Web Annotation quads out."""

from __future__ import annotations

import json
from pathlib import Path

from pyoxigraph import BlankNode

from kb import vocab
from kb.doctree import Block, Cell, ParsedDocument, Section
from kb.stages.extract.mentions import Chunk, mention_quads, mentions_json
from kb.stages.extract.pipeline import extract_chunk
from kb.stages.extract.stage import export_json, extract_store, read_chunks
from kb.stages.lexical.graph import build_lexical_graph
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.store.serialize import sorted_nquads

BASE = "https://w3id.org/cmc-kb/id/"


def parsed_report() -> ParsedDocument:
    root = Section("", 0, 1)
    step = Section("Step 2: dehydration to nitrile", 1, 1)
    step.children += [
        Block("paragraph", "R-101 was charged with oxime 9 (10.4 kg) and THF (10 vol).", 1),
        Block("paragraph", "CDI (1.5 equiv) was added and the mixture was quenched with water as quench agent. This gave nitrile 7 in 86% yield.", 1),
        Block("table", "", 1, cells=[
            Cell(0, 0, "Material", True), Cell(0, 1, "Role", True),
            Cell(1, 0, "THF"), Cell(1, 1, "Solvent"),
            Cell(2, 0, "nitrile 7"), Cell(2, 1, "Product"),
        ], header_rows=1),
    ]
    root.children.append(step)
    return ParsedDocument("TR-1_v1.docx", "application/docx", "0" * 64, root, 1, "test", "1")


def store_with_report() -> OxigraphLocalStore:
    store = OxigraphLocalStore(None)
    graph = build_lexical_graph(parsed_report(), base_iri=BASE, row_window=40)
    store.add(graph.quads(vocab.lexical_graph(graph.doc_id)), graph=vocab.lexical_graph(graph.doc_id))
    return store


def test_chunks_are_read_with_cells_sections_and_documents() -> None:
    chunks = read_chunks(store_with_report())
    assert [c.kind for c in chunks] == ["text", "text", "table"]
    table = chunks[2]
    assert table.text == "Material | Role\nTHF | Solvent\nnitrile 7 | Product"
    assert [(c.row, c.column, c.text, c.is_header) for c in table.cells][:3] == [
        (0, 0, "Material", True), (0, 1, "Role", True), (1, 0, "THF", False)]
    assert table.cells[2].column_header == "Material"
    assert all(c.section.endswith("Step 2: dehydration to nitrile") and c.document.startswith(BASE + "doc/") for c in chunks)


def test_stage_writes_mentions_graph_that_sparql_can_read() -> None:
    store = store_with_report()
    result = extract_store(store)
    assert result.chunks == 3 and result.mentions
    assert result.per_class()["substance"] >= 5
    rows = list(store.query(vocab.sparql_prefixes() + """
        SELECT ?exact ?start ?end ?chunk ?text WHERE { GRAPH <urn:kb:graph:mentions> {
          ?m a oa:Annotation ; cmc:mentionClass obo:CHEBI_24431 ; oa:hasTarget ?t .
          ?t oa:hasSource ?chunk ; oa:hasSelector ?q, ?p .
          ?q oa:exact ?exact . ?p oa:start ?start ; oa:end ?end . }
          GRAPH ?g { ?chunk nif:anchorOf ?text } }"""))
    assert len(rows) == result.per_class()["substance"]
    for row in rows:
        assert row["text"].value[int(row["start"].value) : int(row["end"].value)] == row["exact"].value
    relations = {(r.step, r.predicate, r.obj, r.role) for r in result.relations}
    assert ("Step 2", "has_specified_input", "oxime 9", "intermediate") in relations
    assert ("Step 2", "has_specified_input", "water", "quench agent") in relations
    assert ("Step 2", "has_specified_output", "nitrile 7", "") in relations
    assert ("Step 2", "has_participant", "R-101", "") in relations
    assert all(r.evidence for r in result.relations if r.predicate != "precedes")


def test_two_runs_give_identical_mentions_and_rdf(tmp_path: Path) -> None:
    first, second = store_with_report(), store_with_report()
    run1, run2 = extract_store(first), extract_store(second)
    out1, out2 = tmp_path / "a.nq", tmp_path / "b.nq"
    for store, out in ((first, out1), (second, out2)):
        with out.open("wb") as fh:
            store.export(fh, graph=vocab.GRAPH_MENTIONS)
    assert sorted_nquads(mention_quads(run1.mentions)) == sorted_nquads(mention_quads(run2.mentions))
    assert sorted(out1.read_bytes().splitlines()) == sorted(out2.read_bytes().splitlines())
    assert mentions_json(run1.mentions) == mentions_json(run2.mentions)
    assert not any(isinstance(t, BlankNode) for q in mention_quads(run1.mentions) for t in (q.subject, q.object))


def test_json_export_per_document(tmp_path: Path) -> None:
    store = store_with_report()
    result = extract_store(store)
    paths = export_json(result, read_chunks(store), tmp_path)
    assert len(paths) == 1
    payload = json.loads(paths[0].read_text())
    assert payload["mentions"] == sorted(payload["mentions"], key=lambda m: (m["chunk"], m["start"], m["end"], m["class"], m["rule"]))
    assert {"chunk", "start", "end", "text", "class", "rule", "kind", "attrs"} <= set(payload["mentions"][0])
    assert any(r["predicate"] == "has_specified_output" for r in payload["relations"])


def test_rerun_replaces_rather_than_accumulates() -> None:
    store = store_with_report()
    extract_store(store)
    count = len(list(store.query("SELECT * WHERE { GRAPH <urn:kb:graph:mentions> { ?s ?p ?o } }")))
    extract_store(store)
    assert len(list(store.query("SELECT * WHERE { GRAPH <urn:kb:graph:mentions> { ?s ?p ?o } }"))) == count


def test_extract_chunk_is_pure() -> None:
    chunk = Chunk("urn:c", "THF (10 vol) was charged.")
    assert extract_chunk(chunk) == extract_chunk(chunk)


def test_cli_extract_prints_summary_per_class(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kb.cli import cli

    store_dir = tmp_path / "store"
    store = OxigraphLocalStore(store_dir)
    graph = build_lexical_graph(parsed_report(), base_iri=BASE, row_window=40)
    store.add(graph.quads(vocab.lexical_graph(graph.doc_id)), graph=vocab.lexical_graph(graph.doc_id))
    store.close()
    result = CliRunner().invoke(cli, ["extract", "--store", str(store_dir), "--no-progress", "--json-dir", str(tmp_path / "json")])
    assert result.exit_code == 0, result.output
    assert "chunks: 3" in result.output and "  substance: " in result.output
    assert len(list((tmp_path / "json").glob("*.json"))) == 1


def test_registered_stage_runs_from_the_registry(config) -> None:  # type: ignore[no-untyped-def]
    import kb.stages.extract.stage  # noqa: F401  (registers the stage)
    from kb.registry import StageContext, stages

    spec = stages.get("extract.mentions.v1")
    assert spec.requires == ("graph:lexical",) and spec.produces == ("graph:mentions",)
    ctx = StageContext(config=config, store=store_with_report())
    result = spec.function(ctx, **stages.validate_params("extract.mentions.v1", {}))
    assert result.lines[0] == "chunks: 3" and not result.failures
    assert ctx.artifacts["mentions"] and ctx.artifacts["relations"]
