"""Issue 4: PPTX, XLSX, HTML, Markdown and text reach the same lexical model, tables keep rows and cells."""

from __future__ import annotations

from pathlib import Path

from kb import vocab as V
from kb.stages.lexical.graph import build_lexical_graph
from kb.testing import SAMPLE
from kb.testing_formats import all_blocks as blocks
from kb.testing_formats import all_sections as sections


def cell_grid(block) -> dict[tuple[int, int], str]:  # type: ignore[no-untyped-def]
    return {(c.row, c.column): c.text for c in block.cells}


def test_pptx_one_section_per_slide_with_notes_tables_and_reading_order(files: Path, parse) -> None:
    doc = parse(files / "deck.pptx")
    top = doc.root.sections()
    assert [s.page for s in top] == list(range(1, 7)) and doc.page_count == 6
    assert [s.title for s in top][1:4] == ["1 Introduction", "2 Results", "3 Summary"]
    assert doc.title == SAMPLE.title and doc.report_id == "TR-2019-014" and doc.version == "4"
    intro = top[1]
    assert intro.blocks()[0].kind == "list" and "SNAr cyclisation" in intro.blocks()[0].text
    assert [s.title for s in intro.sections()] == ["Speaker notes"]
    assert intro.sections()[0].blocks()[0].text == "Speaker note for 1 Introduction."
    table = top[4].blocks()[0]
    assert table.kind == "table" and table.header_rows == 1 and table.page == 5
    assert cell_grid(table)[(1, 0)] == "2-MeTHF" and cell_grid(table)[(3, 2)] == "80"
    assert [b.text.split(":")[0] for b in top[5].blocks()] == ["Left column", "Right column"]


def test_xlsx_sheets_captions_headers_and_ranges(files: Path, parse) -> None:
    doc = parse(files / "screen.xlsx")
    screen, runs = doc.root.sections()
    assert (screen.title, screen.page, runs.title, runs.page) == ("Solvent screen", 1, "DoE", 2)
    caption, table, lots = screen.blocks()
    assert caption.kind == "paragraph" and caption.text == "Table 1: Solvent screen for step 3"
    assert table.header_rows == 1 and table.meta["cellRange"] == "A2:C5" and table.caption == caption.text
    assert cell_grid(table)[(0, 1)] == "Conversion (%)" and cell_grid(table)[(1, 1)] == "98.5"
    assert cell_grid(table)[(3, 2)] == "80"
    assert lots.meta["cellRange"] == "B8:C9" and cell_grid(lots)[(1, 1)] == "2019-06-12"
    doe = runs.blocks()[0]
    assert doe.header_rows == 1 and cell_grid(doe)[(4, 3)] == "93.4" and cell_grid(doe)[(2, 0)] == "2"


def test_html_drops_chrome_keeps_loose_text_and_table_grid(files: Path, parse) -> None:
    doc = parse(files / "page.html")
    text = " ".join(b.text for b in blocks(doc.root))
    assert "Home" not in text and "var x" not in text and "track()" not in text
    assert "Report TR-2019-014, Version 4, 2019-06-12" in text
    assert doc.title == SAMPLE.title
    titles = [s.title for s in sections(doc.root)]
    assert titles[:3] == [SAMPLE.title, "1 Introduction", "1.1 Scope"]
    table = next(b for b in blocks(doc.root) if b.kind == "table")
    assert table.caption == "Table 1: Solvent screen" and table.header_rows == 1
    merged = next(c for c in table.cells if c.text == "Merged note")
    assert (merged.row, merged.column, merged.column_span) == (4, 0, 2)
    assert cell_grid(table)[(4, 2)] == "80"
    assert any(b.kind == "list" and b.text == "Charge 2-MeTHF (10 vol).\nHeat to 60 °C." for b in blocks(doc.root))


def test_markdown_title_sections_table_and_list(files: Path, parse) -> None:
    doc = parse(files / "report.md")
    assert doc.title == SAMPLE.title and (doc.report_id, doc.version, doc.date) == ("TR-2019-014", "4", "2019-06-12")
    paths = [s.title for s in sections(doc.root)]
    assert paths == [h for _, h, _ in SAMPLE.sections]
    table = next(b for b in blocks(doc.root) if b.kind == "table")
    assert table.header_rows == 1 and cell_grid(table) == {
        (r, c): v for r, row in enumerate(SAMPLE.table) for c, v in enumerate(row)
    }


def test_text_headings_and_form_feed_pages(files: Path, parse) -> None:
    doc = parse(files / "report.txt")
    assert doc.title == SAMPLE.title and doc.page_count == 3
    pages = {s.title: s.page for s in sections(doc.root)}
    assert pages["1 Introduction"] == 1 and pages["2.1 Solvent screen"] == 2 and pages["3 Summary"] == 3
    assert [s.level for s in sections(doc.root) if s.title.startswith("2")] == [1, 2, 3]


def test_every_format_gives_consistent_spans(files: Path, parse) -> None:
    for path in sorted(files.iterdir()):
        graph = build_lexical_graph(parse(path), base_iri="https://example.org/", row_window=40)
        begins = {s: o for s, p, o in graph.triples if p == V.NIF_BEGIN}
        ends = {s: o for s, p, o in graph.triples if p == V.NIF_END}
        anchors = {s: o for s, p, o in graph.triples if p == V.NIF_ANCHOR_OF}
        assert anchors, path.name
        for node, anchor in anchors.items():
            assert graph.text[int(begins[node].value) : int(ends[node].value)] == anchor.value, path.name


def test_one_and_two_workers_give_identical_graphs(files: Path, config) -> None:
    from kb.ingest import ingest
    from kb.stats import all_quads
    from kb.store.oxigraph_local import OxigraphLocalStore
    from kb.store.serialize import sorted_nquads

    dumps = []
    for workers in (1, 2):
        store = OxigraphLocalStore(None)
        summary = ingest(store, [files], config, workers=workers)
        assert summary.documents == 6 and not summary.failures
        dumps.append(sorted_nquads(all_quads(store)))
    assert dumps[0] == dumps[1]


def test_stated_metadata_reads_file_names_and_sentence_ends() -> None:
    from kb.stages.parse.metadata import stated_metadata

    stated = stated_metadata("", "TR-2019-014_v9_2019-11-30.docx")
    assert (stated.report_id, stated.version, stated.date) == ("TR-2019-014", "9", "2019-11-30")
    assert stated_metadata("Report AM-0117, Version 4.").version == "4"
    assert stated_metadata("Developer 3 on TR-2019-014-X").report_id == "" and stated_metadata("Developer 3").version == ""
