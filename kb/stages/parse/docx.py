"""DOCX to document tree with python-docx: heading styles and outline levels become sections.

Pages: Word files have no fixed pages, so pages are counted from explicit page breaks
(``w:br w:type="page"``, ``w:pageBreakBefore``) and section breaks; the first page is 1.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

import docx
from docx.document import Document as DocxDocument
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from kb.doctree import (
    Block,
    Cell,
    ParsedDocument,
    Section,
    add_block,
    open_section,
    table_text,
)
from kb.errors import InputFileError
from kb.stages.parse.metadata import stated_metadata

MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
LIST_STYLE = re.compile(r"^list", re.IGNORECASE)


def heading_level(paragraph: Paragraph) -> int:
    """Heading level from the style name or the paragraph's outline level; 0 for body text."""
    style = paragraph.style.name if paragraph.style is not None else ""
    found = HEADING_STYLE.match(style or "")
    if found:
        return int(found.group(1))
    ppr = paragraph._p.pPr
    outline = ppr.find(qn("w:outlineLvl")) if ppr is not None else None
    if outline is not None:
        level = int(outline.get(qn("w:val"), "9"))
        return level + 1 if level < 9 else 0
    return 0


def is_list_item(paragraph: Paragraph) -> bool:
    ppr = paragraph._p.pPr
    style = paragraph.style.name if paragraph.style is not None else ""
    return bool(LIST_STYLE.match(style or "")) or (ppr is not None and ppr.find(qn("w:numPr")) is not None)


def page_breaks(paragraph: Paragraph) -> tuple[int, int]:
    """(breaks before the paragraph's text, breaks after it)."""
    p = paragraph._p
    before = 0
    ppr = p.pPr
    if ppr is not None and ppr.find(qn("w:pageBreakBefore")) is not None:
        before += 1
    after = sum(1 for br in p.iter(qn("w:br")) if br.get(qn("w:type")) == "page")
    if ppr is not None and ppr.find(qn("w:sectPr")) is not None:
        after += 1
    return before, after


def table_cells(table: Table) -> list[Cell]:
    """Cells with merged cells (gridSpan, vMerge) kept once at their top-left slot."""
    cells: list[Cell] = []
    open_vertical: dict[int, Cell] = {}
    header_rows = 0
    for r, tr in enumerate(table._tbl.tr_lst):
        trpr = tr.trPr
        if trpr is not None and trpr.find(qn("w:tblHeader")) is not None and header_rows == r:
            header_rows += 1
        column = 0
        for tc in tr.tc_lst:
            span = tc.grid_span
            vmerge = tc.vMerge
            text = "\n".join(
                "".join(t.text or "" for t in p.iter(qn("w:t"))) for p in tc.iter(qn("w:p"))
            ).strip()
            if vmerge == "continue" and column in open_vertical:
                open_vertical[column].row_span += 1
            else:
                cell = Cell(row=r, column=column, text=text, column_span=span)
                cells.append(cell)
                if vmerge == "restart":
                    open_vertical[column] = cell
                else:
                    open_vertical.pop(column, None)
            column += span
    header_rows = header_rows or (1 if len(table._tbl.tr_lst) > 1 else 0)
    for cell in cells:
        cell.is_header = cell.row < header_rows
    return cells


def iter_body(document: DocxDocument):
    """Paragraphs and tables of the body in document order."""
    for child in document.element.body.iterchildren():
        if child.tag == qn("w:p"):
            yield Paragraph(child, document)
        elif child.tag == qn("w:tbl"):
            yield Table(child, document)


def has_drawing(paragraph: Paragraph) -> bool:
    return next(paragraph._p.iter(qn("w:drawing")), None) is not None


def parse_docx(path: Path, source_name: str, sha256: str, *, parser_version: str) -> ParsedDocument:
    """Parse one DOCX file into the shared document tree."""
    try:
        document = docx.Document(str(path))
    except Exception as exc:  # python-docx raises many types on corrupt packages
        raise InputFileError(str(path), f"cannot read DOCX: {type(exc).__name__}: {exc}") from exc
    root = Section(title="", level=0, page=1)
    stack = [root]
    page = 1
    title = ""
    pending_list: list[str] = []
    list_page = 1
    last_table: Block | None = None
    first_texts: list[str] = []
    last_page = 1

    def flush_list() -> None:
        if pending_list:
            add_block(stack, Block(kind="list", text="\n".join(pending_list), page=list_page))
            pending_list.clear()

    for item in iter_body(document):
        if isinstance(item, Table):
            flush_list()
            cells = table_cells(item)
            if cells:
                last_table = Block(kind="table", text=table_text(cells), page=page, cells=cells,
                                   header_rows=max((c.row for c in cells if c.is_header), default=-1) + 1)
                add_block(stack, last_table)
                last_page = page
            continue
        before, after = page_breaks(item)
        page += before
        text = item.text.strip()
        style = (item.style.name if item.style is not None else "") or ""
        if text:
            if len(first_texts) < 8:
                first_texts.append(text)
            level = heading_level(item)
            if style == "Title" and not title:
                flush_list()
                title = text
            elif level:
                flush_list()
                open_section(stack, text, level, page)
            elif is_list_item(item):
                if not pending_list:
                    list_page = page
                pending_list.append(text)
            elif has_drawing(item) or (style == "Caption" and text.lower().startswith("fig")):
                flush_list()
                add_block(stack, Block(kind="figure", text=text, page=page, caption=text))
            else:
                flush_list()
                if style == "Caption" and last_table is not None:
                    last_table.caption = text
                add_block(stack, Block(kind="paragraph", text=text, page=page))
            last_page = page
        elif has_drawing(item):
            flush_list()
            add_block(stack, Block(kind="figure", text="[figure]", page=page))
            last_page = page
        page += after
    flush_list()
    props = document.core_properties
    stated = stated_metadata(
        " ".join(filter(None, [props.identifier, props.version, props.subject, props.keywords])),
        " ".join(first_texts),
        path.name,
    )
    return ParsedDocument(
        source_name=source_name,
        media_type=MEDIA_TYPE,
        sha256=sha256,
        root=root,
        page_count=last_page,
        parser="python-docx",
        parser_version=parser_version,
        title=(props.title or "").strip() or title,
        **asdict(stated),
    )
