"""Small documents built in code, with known structure, for tests, docs and benchmarks.

Nothing binary is committed: every fixture is generated from the SAMPLE outline below.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import docx
import pymupdf
from docx.oxml import OxmlElement

if TYPE_CHECKING:
    from kb.config import Config
    from kb.store.oxigraph_local import OxigraphLocalStore


@dataclass
class Outline:
    """A tiny report: sections with paragraphs and one table, laid out one top-level section a page."""

    title: str
    report_line: str
    sections: list[tuple[int, str, list[str]]] = field(default_factory=list)
    table_after: str = ""
    table: list[list[str]] = field(default_factory=list)


SAMPLE = Outline(
    title="Process Development Report for Compound RA-X35",
    report_line="Report TR-2019-014, Version 4, 2019-06-12",
    sections=[
        (1, "1 Introduction", ["The route to RA-X35 has six steps.", "Step 3 is an SNAr cyclisation in 2-MeTHF."]),
        (2, "1.1 Scope", ["This report covers steps 1 to 3 at 100 L scale."]),
        (1, "2 Results", ["The oxime was formed in water at 20 °C over 2 h.", "Dehydration gave nitrile 5 in 91% yield."]),
        (2, "2.1 Solvent screen", ["Four solvents were compared for step 3."]),
        (3, "2.1.1 Conclusion", ["2-MeTHF gave the best conversion and phase split."]),
        (1, "3 Summary", ["Lot RA-X35-0042 met all specifications."]),
    ],
    table_after="2.1 Solvent screen",
    table=[
        ["Solvent", "Conversion (%)", "Temperature (°C)"],
        ["2-MeTHF", "98.5", "60"],
        ["THF", "91.2", "60"],
        ["Toluene", "72.0", "80"],
    ],
)

FIXED_DATE = (2019, 6, 12, 0, 0, 0)


def normalise_zip(path: Path) -> None:
    """Rewrite an OOXML zip with fixed timestamps and sorted entries so bytes are reproducible."""
    with zipfile.ZipFile(path) as archive:
        entries = sorted((info.filename, archive.read(info.filename)) for info in archive.infolist())
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(zipfile.ZipInfo(name, FIXED_DATE), data, compress_type=zipfile.ZIP_DEFLATED)


def mark_header_row(row) -> None:  # type: ignore[no-untyped-def]
    trpr = row._tr.get_or_add_trPr()
    header = OxmlElement("w:tblHeader")
    trpr.append(header)


def write_docx(path: Path, outline: Outline = SAMPLE, *, merged: bool = True) -> Path:
    """A DOCX with title, nested headings, paragraphs, a list, a header-row table with merged cells."""
    import datetime as dt

    document = docx.Document()
    props = document.core_properties
    props.title = outline.title
    props.identifier = outline.report_line
    props.created = props.modified = dt.datetime(2019, 6, 12)
    document.add_paragraph(outline.title, style="Title")
    document.add_paragraph(outline.report_line)
    for i, (level, heading, paragraphs) in enumerate(outline.sections):
        if level == 1 and i > 0:
            document.add_page_break()
        document.add_heading(heading, level=level)
        for text in paragraphs:
            document.add_paragraph(text)
        if heading == outline.table_after:
            rows = outline.table
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
            mark_header_row(table.rows[0])
            if merged:
                note = document.add_table(rows=2, cols=3)
                top = note.cell(0, 0).merge(note.cell(0, 1))
                top.text = "Merged header"
                note.cell(0, 2).text = "Lot"
                note.cell(1, 0).text = "A"
                note.cell(1, 1).text = "B"
                note.cell(1, 2).text = "RA-X35-0042"
            document.add_paragraph("Table 1: Solvent screen for step 3.", style="Caption")
            document.add_paragraph("Charge 2-MeTHF (10 vol).", style="List Number")
            document.add_paragraph("Heat to 60 °C.", style="List Number")
    document.save(str(path))
    normalise_zip(path)
    return path


def expected_docx_pages(outline: Outline = SAMPLE) -> dict[str, int]:
    """Page of each heading under the page-break rule (a new page per top-level section)."""
    pages, page = {}, 1
    for i, (level, heading, _) in enumerate(outline.sections):
        if level == 1 and i > 0:
            page += 1
        pages[heading] = page
    return pages


def draw_table(page: pymupdf.Page, top: float, rows: list[list[str]]) -> float:
    """Ruled table (so PyMuPDF's line-based table finder sees it); returns the y below it."""
    left, width, height = 72.0, 450.0, 20.0
    col = width / len(rows[0])
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            rect = pymupdf.Rect(left + c * col, top + r * height, left + (c + 1) * col, top + (r + 1) * height)
            page.draw_rect(rect, color=(0, 0, 0), width=0.7)
            page.insert_text((rect.x0 + 4, rect.y1 - 6), value, fontsize=9, fontname="hebo" if r == 0 else "helv")
    return top + len(rows) * height + 16


def write_pdf(path: Path, outline: Outline = SAMPLE, *, extra_pages: int = 0) -> Path:
    """A digital PDF: title, numbered bold headings, paragraphs, a ruled table, running header/footer.

    ``extra_pages`` appends filler pages of body text, for throughput benchmarks.
    """
    document = pymupdf.open()
    body = [(level, heading, paragraphs) for level, heading, paragraphs in outline.sections]
    groups: list[list[tuple[int, str, list[str]]]] = []
    for item in body:
        if item[0] == 1 or not groups:
            groups.append([])
        groups[-1].append(item)
    total = len(groups) + extra_pages
    for number, group in enumerate(groups, start=1):
        page = document.new_page()
        y = 60.0
        if number == 1:
            page.insert_text((72, y), outline.title, fontsize=18, fontname="hebo")
            y += 24
            page.insert_text((72, y), outline.report_line, fontsize=10, fontname="helv")
            y += 30
        for level, heading, paragraphs in group:
            page.insert_text((72, y), heading, fontsize={1: 14, 2: 12, 3: 11}[level], fontname="hebo")
            y += 22
            for text in paragraphs:
                page.insert_text((72, y), text, fontsize=10, fontname="helv")
                y += 20
            if heading == outline.table_after:
                y = draw_table(page, y, outline.table)
        running(page, number, total)
    for extra in range(extra_pages):
        page = document.new_page()
        y = 60.0
        page.insert_text((72, y), f"{len(groups) + extra + 1} Appendix {extra + 1}", fontsize=14, fontname="hebo")
        y += 24
        for line in range(30):
            page.insert_text((72, y), f"Batch record line {line} of appendix {extra + 1}: charge 2-MeTHF (10 vol) at 20 °C.", fontsize=10, fontname="helv")
            y += 20
        running(page, len(groups) + extra + 1, total)
    document.set_metadata({"title": outline.title, "subject": outline.report_line, "creationDate": "D:20190612000000", "modDate": "D:20190612000000"})
    document.save(str(path), garbage=3, deflate=True, no_new_id=True)
    document.close()
    return path


def running(page: pymupdf.Page, number: int, total: int) -> None:
    page.insert_text((72, 30), "CONFIDENTIAL - Process Development", fontsize=8, fontname="helv")
    page.insert_text((260, page.rect.height - 25), f"Page {number} of {total}", fontsize=8, fontname="helv")


def write_encrypted_pdf(path: Path) -> Path:
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "secret", fontsize=12)
    document.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw")
    document.close()
    return path


def write_zip_bomb_docx(path: Path, expanded_bytes: int) -> Path:
    """A .docx-named zip whose entry expands to ``expanded_bytes`` (zeros compress ~1000:1)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/bomb.bin", "w") as handle:
            chunk = b"\0" * (1 << 20)
            for _ in range(expanded_bytes // len(chunk)):
                handle.write(chunk)
    return path


DOMAIN_TTL = """
@prefix obo: <http://purl.obolibrary.org/obo/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix oa: <http://www.w3.org/ns/oa#> .
@prefix e: <https://w3id.org/cmc-kb/id/entity/> .
e:water a obo:CHEBI_24431 ; skos:prefLabel "water" ; skos:altLabel "H2O" .
e:methf a obo:CHEBI_24431 ; skos:prefLabel "2-MeTHF" ; skos:altLabel "2-methyltetrahydrofuran" , "MeTHF" .
e:thf a obo:CHEBI_24431 ; skos:prefLabel "THF" .
e:step1 a obo:OBI_0000011 ; skos:prefLabel "Step 1: oxime formation" ; skos:altLabel "oxime formation" ;
   obo:OBI_0000293 e:water ; obo:BFO_0000063 e:step3 .
e:step3 a obo:OBI_0000011 ; skos:prefLabel "Step 3: SNAr cyclisation" ; skos:altLabel "SNAr cyclisation" ;
   obo:OBI_0000293 e:methf , e:water .
e:s1 rdf:subject e:step1 ; rdf:predicate obo:OBI_0000293 ; rdf:object e:water ; prov:wasDerivedFrom <MENTION_WATER_1> .
e:s2 rdf:subject e:step3 ; rdf:predicate obo:OBI_0000293 ; rdf:object e:methf ; prov:wasDerivedFrom <MENTION_METHF_3> .
e:s3 rdf:subject e:step3 ; rdf:predicate obo:OBI_0000293 ; rdf:object e:water ; prov:wasDerivedFrom <MENTION_METHF_3> .
<MENTION_WATER_1> oa:hasBody e:water .
<MENTION_METHF_3> oa:hasBody e:methf .
"""
MENTIONS_TTL = """
@prefix oa: <http://www.w3.org/ns/oa#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<MENTION_WATER_1> a oa:Annotation ; oa:hasTarget <MENTION_WATER_1/t> .
<MENTION_WATER_1/t> oa:hasSource <CHUNK_OXIME> ; oa:hasSelector <MENTION_WATER_1/p> .
<MENTION_WATER_1/p> a oa:TextPositionSelector ; oa:start "22"^^xsd:nonNegativeInteger ; oa:end "27"^^xsd:nonNegativeInteger .
<MENTION_METHF_3> a oa:Annotation ; oa:hasTarget <MENTION_METHF_3/t> .
<MENTION_METHF_3/t> oa:hasSource <CHUNK_SNAR> ; oa:hasSelector <MENTION_METHF_3/p> .
<MENTION_METHF_3/p> a oa:TextPositionSelector ; oa:start "34"^^xsd:nonNegativeInteger ; oa:end "41"^^xsd:nonNegativeInteger .
"""


def chunk_with(store: OxigraphLocalStore, text: str) -> str:
    """IRI of the first chunk whose text is exactly ``text`` (ignoring its language tag)."""
    from kb import vocab as V

    sparql = V.sparql_prefixes() + f'SELECT ?c WHERE {{ GRAPH ?g {{ ?c nif:anchorOf ?t ; cmc:page ?p }} FILTER(STR(?t) = "{text}") }} ORDER BY ?c LIMIT 1'
    rows = list(store.query(sparql))
    return rows[0]["c"].value


def build_two_layer_store(folder: Path, config: Config) -> OxigraphLocalStore:
    """The sample documents ingested, plus a hand-built domain layer anchored in two of their sentences."""
    from pyoxigraph import RdfFormat, parse

    from kb import vocab as V
    from kb.ingest import ingest
    from kb.store.oxigraph_local import OxigraphLocalStore

    store = OxigraphLocalStore(None)
    ingest(store, [folder], config)
    oxime = chunk_with(store, "The oxime was formed in water at 20 °C over 2 h.")
    snar = chunk_with(store, "Step 3 is an SNAr cyclisation in 2-MeTHF.")
    replace = {"MENTION_WATER_1": oxime + "/mention/22-27-CHEBI_24431", "MENTION_METHF_3": snar + "/mention/34-41-CHEBI_24431",
               "CHUNK_OXIME": oxime, "CHUNK_SNAR": snar}
    for ttl, graph in ((DOMAIN_TTL, V.GRAPH_DOMAIN), (MENTIONS_TTL, V.GRAPH_MENTIONS)):
        for key, value in replace.items():
            ttl = ttl.replace(key, value)
        store.add(parse(ttl, format=RdfFormat.TURTLE), graph=graph)
    return store
