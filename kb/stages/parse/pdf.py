"""Digital PDF to document tree with PyMuPDF: blocks in reading order, headings, tables, figures.

Reading order: blocks are grouped into horizontal bands separated by full-width blocks; inside a
band the left column is read before the right one. Headers and footers (text in the top or
bottom margin that repeats across pages or is a bare page number) are dropped.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import pymupdf

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
from kb.stages.parse.ocr import OcrOptions, record_ocr

MEDIA_TYPE = "application/pdf"
NUMBERED_HEADING = re.compile(r"^(\d+(?:\.\d+){0,4})\.?\s+\S")
LIST_ITEM = re.compile(r"^(?:[•▪◦\-–·*]|\(?[a-z0-9]{1,2}[.)])\s+")
FIGURE_CAPTION = re.compile(r"^(?:figure|fig\.|abbildung|abb\.)\s*\d+", re.IGNORECASE)
MARGIN = 0.07
PAGE_NUMBER = re.compile(r"^(?:page\s*)?\d+(?:\s*(?:of|/)\s*\d+)?$", re.IGNORECASE)


@dataclass
class TextBlock:
    bbox: tuple[float, float, float, float]
    text: str
    size: float
    bold: bool
    lines: int
    is_image: bool = False
    table: pymupdf.table.Table | None = None


def open_pdf(path: Path) -> pymupdf.Document:
    """Open a PDF, refusing encrypted and unreadable files with a clear reason."""
    try:
        document = pymupdf.open(str(path), filetype="pdf")
    except Exception as exc:  # PyMuPDF raises FileDataError and plain RuntimeErrors
        raise InputFileError(str(path), f"cannot read PDF: {exc}") from exc
    if document.needs_pass or document.is_encrypted:
        raise InputFileError(str(path), "PDF is encrypted or password-protected")
    if document.page_count == 0:
        raise InputFileError(str(path), "PDF has no pages")
    if document.is_repaired and b"%%EOF" not in path.read_bytes()[-2048:]:
        raise InputFileError(str(path), "PDF is truncated (no end-of-file marker; content would be incomplete)")
    return document


def page_blocks(page: pymupdf.Page, skip: list[pymupdf.Rect]) -> list[TextBlock]:
    """Text and image blocks outside the given areas (tables), with their dominant font."""
    out: list[TextBlock] = []
    for block in page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT | pymupdf.TEXT_PRESERVE_IMAGES)["blocks"]:
        rect = pymupdf.Rect(block["bbox"])
        if any(rect.intersects(area) and (rect & area).get_area() > 0.5 * rect.get_area() for area in skip):
            continue
        if block["type"] == 1:
            out.append(TextBlock(tuple(rect), "", 0.0, False, 0, is_image=True))
            continue
        lines, sizes, bold_chars, chars = [], [], 0, 0
        for line in block["lines"]:
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not spans:
                continue
            lines.append(" ".join(s["text"].strip() for s in spans))
            for s in spans:
                n = len(s["text"].strip())
                sizes.extend([s["size"]] * n)
                chars += n
                if s["flags"] & 16 or "bold" in s["font"].lower():
                    bold_chars += n
        text = join_lines(lines)
        if text:
            out.append(TextBlock(tuple(rect), text, statistics.median(sizes), bold_chars > 0.6 * chars, len(lines)))
    return out


def join_lines(lines: list[str]) -> str:
    """Join wrapped lines, undoing end-of-line hyphenation."""
    text = ""
    for line in lines:
        if text.endswith("-") and line[:1].islower():
            text = text[:-1] + line
        elif text:
            text += " " + line
        else:
            text = line
    return text.strip()


def reading_order(blocks: list[TextBlock], width: float) -> list[TextBlock]:
    """Order blocks: full-width blocks split bands; within a band, left column then right."""
    mid = width / 2
    ordered: list[TextBlock] = []
    band: list[TextBlock] = []

    def flush() -> None:
        left = [b for b in band if b.bbox[0] < mid - 1 and b.bbox[2] <= mid + 0.1 * width]
        right = [b for b in band if b not in left]
        ordered.extend(sorted(left, key=lambda b: (b.bbox[1], b.bbox[0])))
        ordered.extend(sorted(right, key=lambda b: (b.bbox[1], b.bbox[0])))
        band.clear()

    for block in sorted(blocks, key=lambda b: (b.bbox[1], b.bbox[0])):
        full_width = block.bbox[0] < mid - 0.05 * width and block.bbox[2] > mid + 0.05 * width
        if full_width:
            flush()
            ordered.append(block)
        else:
            band.append(block)
    flush()
    return ordered


def margin_texts(document: pymupdf.Document) -> set[str]:
    """Texts in the top/bottom margins that repeat on several pages: running headers and footers."""
    counts: Counter[str] = Counter()
    for page in document:
        height = page.rect.height
        for x0, y0, x1, y1, text, *_ in page.get_text("blocks"):
            if y1 < height * MARGIN or y0 > height * (1 - MARGIN):
                counts[normalise_margin(text)] += 1
    return {t for t, n in counts.items() if n >= 2}


def normalise_margin(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.split()))


def table_cells(page: pymupdf.Page, table: pymupdf.table.Table) -> list[Cell]:
    """Cell text read from each cell's box (PyMuPDF's own extract() drops spaces in some fonts)."""
    cells: list[Cell] = []
    rows = table.rows
    for r, row in enumerate(rows):
        for c, box in enumerate(row.cells):
            if box is None:
                continue
            text = " ".join(page.get_text("text", clip=pymupdf.Rect(box)).split())
            cells.append(Cell(row=r, column=c, text=text, is_header=r == 0 and len(rows) > 1))
    return cells


def parse_pdf(
    path: Path, source_name: str, sha256: str, *, parser_version: str, max_pages: int, ocr: OcrOptions | None = None
) -> ParsedDocument:
    """Parse a PDF into the shared document tree; pages without a text layer are OCR'd."""
    return parse_pdf_document(open_pdf(path), path, source_name, sha256, parser_version=parser_version,
                              max_pages=max_pages, ocr=ocr)


def parse_pdf_document(
    document: pymupdf.Document, path: Path, source_name: str, sha256: str, *, parser_version: str, max_pages: int,
    ocr: OcrOptions | None = None,
) -> ParsedDocument:
    """Parse an open PDF (also used for images wrapped as PDF pages), closing it afterwards."""
    try:
        if document.page_count > max_pages:
            raise InputFileError(str(path), f"PDF has {document.page_count} pages, over the limit of {max_pages}")
        from kb.stages.parse.pdf_ocr import ocr_pdf_pages

        options = ocr or OcrOptions()
        scanned = ocr_pdf_pages(document, path, options)
        parsed = _parse(document, path, source_name, sha256, parser_version, {i: s.blocks for i, s in scanned.items()})
        return record_ocr(parsed, {i + 1: s.confidence for i, s in scanned.items()}, options)
    except InputFileError:
        raise
    except Exception as exc:  # malformed content streams surface as assorted runtime errors
        raise InputFileError(str(path), f"cannot parse PDF content: {type(exc).__name__}: {exc}") from exc
    finally:
        document.close()


def _parse(
    document: pymupdf.Document, path: Path, source_name: str, sha256: str, parser_version: str,
    scanned: dict[int, list[TextBlock]],
) -> ParsedDocument:
    repeated = margin_texts(document)
    pages: list[tuple[pymupdf.Page, list[TextBlock]]] = []
    all_sizes: list[float] = []
    for index, page in enumerate(document):
        has_tables = index not in scanned and page.get_drawings()
        # use_layout=False: PyMuPDF's ONNX layout gate costs ~1 s a page and found no other tables here
        tables = [t for t in page.find_tables(use_layout=False).tables if t.row_count >= 2] if has_tables else []
        height = page.rect.height
        kept = [
            TextBlock(tuple(t.bbox), "", 0.0, False, 0, table=t) for t in tables
        ]
        for block in scanned[index] if index in scanned else page_blocks(page, [pymupdf.Rect(t.bbox) for t in tables]):
            in_margin = block.bbox[3] < height * MARGIN or block.bbox[1] > height * (1 - MARGIN)
            if in_margin and (normalise_margin(block.text) in repeated or PAGE_NUMBER.match(block.text)):
                continue
            kept.append(block)
            all_sizes.extend([block.size] * len(block.text))
        pages.append((page, reading_order(kept, page.rect.width)))
    body_size = statistics.median(all_sizes) if all_sizes else 10.0
    root = Section(title="", level=0, page=1)
    stack = [root]
    title = ""
    first_texts: list[str] = []
    for number, (page, entries) in enumerate(pages, start=1):
        pending_figure = False
        for block in entries:
            if block.table is not None:
                cells = table_cells(page, block.table)
                if cells:
                    add_block(stack, Block(kind="table", text=table_text(cells), page=number, cells=cells,
                                           header_rows=1 if any(c.is_header for c in cells) else 0))
                continue
            if block.is_image:
                pending_figure = True
                continue
            text = block.text
            if len(first_texts) < 8:
                first_texts.append(text)
            level = heading_level(block, body_size)
            if number == 1 and not title and block.size >= body_size * 1.4 and block.lines <= 3:
                title = text
            elif level:
                open_section(stack, text, level, number)
            elif FIGURE_CAPTION.match(text) or pending_figure and len(text) < 300:
                add_block(stack, Block(kind="figure", text=text, page=number, caption=text))
                pending_figure = False
            elif LIST_ITEM.match(text):
                add_block(stack, Block(kind="list", text=text, page=number))
            else:
                add_block(stack, Block(kind="paragraph", text=text, page=number))
    meta = document.metadata or {}
    stated = stated_metadata(
        " ".join(filter(None, [meta.get("subject", ""), meta.get("keywords", "")])), " ".join(first_texts), path.name
    )
    return ParsedDocument(
        source_name=source_name,
        media_type=MEDIA_TYPE,
        sha256=sha256,
        root=root,
        page_count=document.page_count,
        parser="pymupdf",
        parser_version=parser_version,
        title=(meta.get("title") or "").strip() or title,
        **asdict(stated),
    )


def heading_level(block: TextBlock, body_size: float) -> int:
    """Numbered short lines are headings at their numbering depth; big or bold short lines too."""
    if block.lines > 2 or len(block.text) > 120 or block.text.endswith((".", ",", ";", ":")):
        return 0
    numbered = NUMBERED_HEADING.match(block.text)
    larger = block.size >= body_size * 1.15
    if numbered and (larger or block.bold):
        return numbered.group(1).count(".") + 1
    if larger and block.bold:
        return 1 if block.size >= body_size * 1.4 else 2
    return 0
