"""Write a Document as DOCX with python-docx; pages follow explicit page breaks (page 1 first).

Paragraph styles are set by style id and tables are built as WordprocessingML directly: python-docx
resolves style names and sets cell text one element at a time, which made a 38-document corpus
take several seconds longer than necessary.
"""

from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

import docx
from docx.enum.text import WD_BREAK
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from kb.demo.determinism import fixed_datetime, normalise_zip
from kb.demo.model import Document, Heading, PageBreak, Paragraph, Table

_HEADING_STYLES = {0: "Title", 1: "Heading1", 2: "Heading2", 3: "Heading3"}
_TEXT_WIDTH = 9000  # twips


def table_xml(header: list[str], rows: list[list[str]]):  # type: ignore[no-untyped-def]
    """A grid table (style TableGrid) with a repeated, bold header row."""
    width = _TEXT_WIDTH // len(header)

    def cell(text: str, bold: bool) -> str:
        rpr = "<w:rPr><w:b/></w:rPr>" if bold else ""
        return (f'<w:tc><w:tcPr><w:tcW w:w="{width}" w:type="dxa"/></w:tcPr><w:p><w:r>{rpr}'
                f'<w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p></w:tc>')

    head = "<w:tr><w:trPr><w:tblHeader/></w:trPr>" + "".join(cell(v, True) for v in header) + "</w:tr>"
    body = "".join("<w:tr>" + "".join(cell(v, False) for v in row) + "</w:tr>" for row in rows)
    grid = "".join(f'<w:gridCol w:w="{width}"/>' for _ in header)
    return parse_xml(f'<w:tbl {nsdecls("w")}><w:tblPr><w:tblStyle w:val="TableGrid"/>'
                     f'<w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{head}{body}</w:tbl>')


def write_docx(doc: Document, path: Path) -> None:
    """Render the blocks, record each block's page in `doc.pages`, and save deterministically."""
    d = docx.Document()
    d.styles["Table Grid"]
    sect = d.element.body.sectPr
    page = 1
    doc.pages = []
    for block in doc.blocks:
        if isinstance(block, PageBreak):
            d.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
            page += 1
        elif isinstance(block, Heading):
            d.add_paragraph(block.text.text)._p.style = _HEADING_STYLES[block.level]
        elif isinstance(block, Paragraph):
            p = d.add_paragraph(block.text)
            if block.style == "bullet":
                p._p.style = "ListBullet"
        elif isinstance(block, Table):
            d.add_paragraph(block.caption.text)._p.style = "Caption"
            sect.addprevious(table_xml(block.header, [[s.text for s in r] for r in block.rows]))
        else:
            raise TypeError(f"{doc.file}: DOCX cannot hold {type(block).__name__}")
        doc.pages.append(page)
    props = d.core_properties
    props.title = doc.title
    props.subject = doc.report_id
    props.identifier = doc.report_id
    props.version = doc.version_label
    props.revision = doc.version
    props.keywords = f"{doc.report_id}; {doc.version_label}; {doc.date}; {doc.programme}"
    props.author = "CMC-KB demo generator"
    props.last_modified_by = "CMC-KB demo generator"
    props.language = doc.language
    props.created = props.modified = fixed_datetime(doc.date)
    props.comments = f"Report {doc.report_id}, {doc.version_label}, {doc.date}"
    buffer = io.BytesIO()
    d.save(buffer)
    path.write_bytes(normalise_zip(buffer.getvalue()))
