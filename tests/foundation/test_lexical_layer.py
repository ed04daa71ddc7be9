"""Issue 2: DOCX and PDF reach the lexical layer losslessly, checked through SPARQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from kb import vocab as V
from kb.ingest import ingest
from kb.iris import doc_id
from kb.testing import SAMPLE, expected_docx_pages

CHUNKS = V.sparql_prefixes() + """
SELECT ?chunk ?text ?page ?begin ?end ?index ?parentTitle ?kind WHERE {
  GRAPH ?g {
    ?chunk a cmc:Chunk ; nif:anchorOf ?text ; cmc:page ?page ; nif:beginIndex ?begin ;
           nif:endIndex ?end ; cmc:readingIndex ?index ; cmc:chunkKind ?kind ; dcterms:isPartOf ?parent .
    OPTIONAL { ?parent a doco:Section ; dcterms:title ?parentTitle }
  }
} ORDER BY ?index"""

SECTIONS = V.sparql_prefixes() + """
SELECT ?title ?page ?level ?parentTitle ?begin ?end WHERE {
  GRAPH ?g {
    ?s a doco:Section ; dcterms:title ?title ; cmc:page ?page ; cmc:headingLevel ?level ;
       nif:beginIndex ?begin ; nif:endIndex ?end ; dcterms:isPartOf ?parent .
    OPTIONAL { ?parent a doco:Section ; dcterms:title ?parentTitle }
  }
}"""


def rows(store, sparql: str, name: str) -> list[dict[str, str | None]]:  # type: ignore[no-untyped-def]
    """Solutions as plain dicts, with the query confined to one document's graph."""
    graph = V.lexical_graph(doc_id(name))
    result = store.query(sparql.replace("GRAPH ?g", f"GRAPH <{graph}>"))
    names = [v.value for v in result.variables]
    return [{n: (r[n].value if r[n] is not None else None) for n in names} for r in result]


def document_text(store, name: str) -> str:  # type: ignore[no-untyped-def]
    result = store.query(
        V.sparql_prefixes() + "SELECT * WHERE { GRAPH ?g { ?d nif:isString ?t } }",
        bindings={"g": NamedNode(V.lexical_graph(doc_id(name)))},
    )
    return next(iter(result))["t"].value


@pytest.fixture
def ingested(memory_store, sample_folder: Path, config):  # type: ignore[no-untyped-def]
    summary = ingest(memory_store, [sample_folder], config)
    assert summary.failures == []
    assert summary.documents == 2
    return memory_store


@pytest.mark.parametrize("name", ["TR-2019-014_v4.docx", "TR-2019-014_v4.pdf"])
def test_every_heading_once_nested_with_page(ingested, name: str) -> None:
    sections = rows(ingested, SECTIONS, name)
    titles = [s["title"] for s in sections]
    expected = [heading for _, heading, _ in SAMPLE.sections]
    assert sorted(titles) == sorted(expected)
    by_title = {s["title"]: s for s in sections}
    pages = expected_docx_pages()
    parents = {"1.1 Scope": "1 Introduction", "2.1 Solvent screen": "2 Results", "2.1.1 Conclusion": "2.1 Solvent screen"}
    for level, heading, _ in SAMPLE.sections:
        section = by_title[heading]
        assert int(section["level"]) == level
        assert int(section["page"]) == pages[heading]
        assert section["parentTitle"] == parents.get(heading)


@pytest.mark.parametrize("name", ["TR-2019-014_v4.docx", "TR-2019-014_v4.pdf"])
def test_every_paragraph_once_in_its_section_in_reading_order(ingested, name: str) -> None:
    chunks = rows(ingested, CHUNKS, name)
    texts = [c["text"] for c in chunks]
    pages = expected_docx_pages()
    for _, heading, paragraphs in SAMPLE.sections:
        for paragraph in paragraphs:
            assert texts.count(paragraph) == 1, paragraph
            chunk = chunks[texts.index(paragraph)]
            assert chunk["parentTitle"] == heading
            assert int(chunk["page"]) == pages[heading]
    expected_order = [p for _, _, paragraphs in SAMPLE.sections for p in paragraphs]
    positions = [texts.index(p) for p in expected_order]
    assert positions == sorted(positions)
    assert [int(c["index"]) for c in chunks] == list(range(len(chunks)))


@pytest.mark.parametrize("name", ["TR-2019-014_v4.docx", "TR-2019-014_v4.pdf"])
def test_offsets_slice_document_text_back_to_chunks_and_headings(ingested, name: str) -> None:
    text = document_text(ingested, name)
    for chunk in rows(ingested, CHUNKS, name):
        assert text[int(chunk["begin"]) : int(chunk["end"])] == chunk["text"]
    for section in rows(ingested, SECTIONS, name):
        assert text[int(section["begin"]) : int(section["end"])] == section["title"]


@pytest.mark.parametrize("name", ["TR-2019-014_v4.docx", "TR-2019-014_v4.pdf"])
def test_every_table_cell_once_in_row_and_column(ingested, name: str) -> None:
    graph = V.lexical_graph(doc_id(name))
    result = ingested.query(
        V.sparql_prefixes()
        + f"""SELECT ?r ?c ?t ?h WHERE {{ GRAPH <{graph}> {{
            ?table a doco:Table ; cmc:hasCell ?cell . ?cell cmc:rowIndex ?r ; cmc:columnIndex ?c ;
            cmc:cellText ?t ; cmc:isHeader ?h }} }}"""
    )
    cells = [(int(r["r"].value), int(r["c"].value), r["t"].value, r["h"].value) for r in result]
    for row_index, row in enumerate(SAMPLE.table):
        for column_index, value in enumerate(row):
            matches = [c for c in cells if c[2] == value and c[:2] == (row_index, column_index)]
            assert len(matches) == 1, (value, row_index, column_index)
            assert matches[0][3] == ("true" if row_index == 0 else "false")


def test_docx_merged_cells_kept_once_with_span(ingested) -> None:
    graph = V.lexical_graph(doc_id("TR-2019-014_v4.docx"))
    result = ingested.query(
        V.sparql_prefixes()
        + f"""SELECT ?c ?span WHERE {{ GRAPH <{graph}> {{ ?cell cmc:cellText "Merged header" ;
            cmc:columnIndex ?c ; cmc:columnSpan ?span }} }}"""
    )
    found = [(int(r["c"].value), int(r["span"].value)) for r in result]
    assert found == [(0, 2)]


@pytest.mark.parametrize("name", ["TR-2019-014_v4.docx", "TR-2019-014_v4.pdf"])
def test_document_metadata(ingested, name: str) -> None:
    graph = V.lexical_graph(doc_id(name))
    result = ingested.query(
        V.sparql_prefixes()
        + f"""SELECT * WHERE {{ GRAPH <{graph}> {{ ?d a doco:Document ; dcterms:title ?title ;
            dcterms:identifier ?id ; pav:version ?version ; dcterms:date ?date ; cmc:fileName ?file ;
            dcterms:format ?format ; cmc:sha256 ?sha ; prism:pageCount ?pages ;
            prov:wasGeneratedBy/prov:wasAssociatedWith ?agent }} }}"""
    )
    (row,) = list(result)
    assert row["title"].value == SAMPLE.title
    assert (row["id"].value, row["version"].value, row["date"].value) == ("TR-2019-014", "4", "2019-06-12")
    assert row["file"].value == name
    assert int(row["pages"].value) == 3
    assert len(row["sha"].value) == 64


def test_pdf_running_header_and_page_numbers_removed(ingested) -> None:
    texts = [c["text"] for c in rows(ingested, CHUNKS, "TR-2019-014_v4.pdf")]
    assert not any("CONFIDENTIAL" in t or t.startswith("Page ") for t in texts)


def test_reading_order_chain_has_no_gaps(ingested) -> None:
    graph = V.lexical_graph(doc_id("TR-2019-014_v4.docx"))
    result = ingested.query(
        V.sparql_prefixes()
        + f"""SELECT ?a ?b WHERE {{ GRAPH <{graph}> {{ ?x cmc:nextChunk ?y . ?x cmc:readingIndex ?a .
            ?y cmc:readingIndex ?b }} }}"""
    )
    pairs = sorted((int(r["a"].value), int(r["b"].value)) for r in result)
    assert pairs and all(b == a + 1 for a, b in pairs)
    assert [a for a, _ in pairs] == list(range(len(pairs)))
