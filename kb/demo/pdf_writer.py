"""Write Documents as PDF with PyMuPDF and the built-in Helvetica (no system fonts).

A small line layout of our own (instead of Story/htmlbox) so the writer knows the page of every
block: paragraphs and tables never split across pages, which keeps each ground-truth sentence on
exactly one page.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pymupdf

from kb.demo.determinism import pdf_date
from kb.demo.model import Block, Columns, Document, Heading, PageBreak, Paragraph, Table

BODY, BOLD = "helv", "hebo"
_SIZES = {0: 17.0, 1: 13.5, 2: 11.5, 3: 10.5}
GREY = (0.35, 0.35, 0.35)


def wrap(text: str, width: float, font: str, size: float) -> list[str]:
    """Greedy word wrap by measured Helvetica widths."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if current and pymupdf.get_text_length(trial, fontname=font, fontsize=size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def check_encodable(doc: Document, text: str) -> None:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{doc.file}: text not representable in Helvetica: {text!r}") from exc


@dataclass
class Layout:
    """A cursor over pages of one PDF."""

    pdf: pymupdf.Document
    width: float = 595.0
    height: float = 842.0
    margin: float = 56.0
    y: float = 0.0
    page: pymupdf.Page | None = None
    footer: str = ""
    scale: float = 1.0  # font scale: slides exported to PDF use larger type

    def new_page(self) -> None:
        self.page = self.pdf.new_page(width=self.width, height=self.height)
        self.y = self.margin
        if self.footer:
            n = self.pdf.page_count
            self.page.insert_text((self.margin, self.height - 28), f"{self.footer} | page {n}",
                                  fontname=BODY, fontsize=7.5, color=GREY)

    @property
    def number(self) -> int:
        return self.pdf.page_count

    def ensure(self, needed: float) -> None:
        if self.page is None or (self.y + needed > self.height - self.margin and self.y > self.margin):
            self.new_page()

    def text(self, text: str, *, font: str = BODY, size: float = 10.0, x0: float | None = None,
             x1: float | None = None, gap: float = 6.0) -> None:
        x0 = self.margin if x0 is None else x0
        x1 = self.width - self.margin if x1 is None else x1
        lines = wrap(text, x1 - x0, font, size)
        lead = size * 1.35
        self.ensure(lead * len(lines))
        assert self.page is not None
        for line in lines:
            self.y += lead
            self.page.insert_text((x0, self.y), line, fontname=font, fontsize=size)
        self.y += gap

    def table(self, header: list[str], rows: list[list[str]], size: float = 8.5) -> None:
        usable = self.width - 2 * self.margin
        weights = [max(pymupdf.get_text_length(v, fontname=BODY, fontsize=size) for v in col) + 12
                   for col in zip(header, *rows)]
        total = sum(weights)
        widths = [max(usable * w / total, 40.0) for w in weights]
        scale = usable / sum(widths)
        widths = [w * scale for w in widths]
        lead = size * 1.3
        wrapped = [[wrap(v, w - 6, BOLD if r == 0 else BODY, size) for v, w in zip(row, widths)]
                   for r, row in enumerate([header, *rows])]
        heights = [max(len(c) for c in row) * lead + 5 for row in wrapped]
        self.ensure(sum(heights) + 4)
        assert self.page is not None
        for r, (row, h) in enumerate(zip(wrapped, heights)):
            x = self.margin
            for cell, w in zip(row, widths):
                self.page.draw_rect(pymupdf.Rect(x, self.y, x + w, self.y + h), color=(0, 0, 0), width=0.5)
                for k, line in enumerate(cell):
                    self.page.insert_text((x + 3, self.y + 2 + lead * (k + 1) - 2), line,
                                          fontname=BOLD if r == 0 else BODY, fontsize=size)
                x += w
            self.y += h
        self.y += 8


def place_blocks(doc: Document, lay: Layout, blocks: list[Block]) -> list[int]:
    """Lay out blocks; returns the page of each."""
    pages: list[int] = []
    for block in blocks:
        if isinstance(block, PageBreak):
            lay.new_page()
        elif isinstance(block, Heading):
            check_encodable(doc, block.text.text)
            size = _SIZES[block.level] * lay.scale
            lay.ensure(size * 4)
            lay.y += size * 0.6
            lay.text(block.text.text, font=BOLD, size=size, gap=4)
        elif isinstance(block, Paragraph):
            check_encodable(doc, block.text)
            bullet = block.style == "bullet"
            lay.text(("- " if bullet else "") + block.text, size=(9 if block.style == "caption" else 10) * lay.scale,
                     x0=lay.margin + (10 if bullet else 0), gap=6 * lay.scale)
        elif isinstance(block, Table):
            cells = [block.header, *[[s.text for s in r] for r in block.rows]]
            for row in cells:
                for v in row:
                    check_encodable(doc, v)
            lay.text(block.caption.text, font=BOLD, size=9 * lay.scale, gap=3)
            lay.table(block.header, cells[1:], size=8.5 * lay.scale)
        elif isinstance(block, Columns):
            place_columns(doc, lay, block)
        pages.append(lay.number)
    return pages


def place_columns(doc: Document, lay: Layout, block: Columns) -> None:
    """Two text columns plus a shaded sidebar; drawn sidebar first, then right, then left column,
    then the title, so content-stream order differs from reading order."""
    lay.new_page()
    page = lay.page
    assert page is not None
    gutter = 18.0
    col_w = (lay.width - 2 * lay.margin - gutter) / 2
    top = lay.margin + 40
    side_top = lay.height - lay.margin - 190
    page.draw_rect(pymupdf.Rect(lay.margin, side_top, lay.width - lay.margin, lay.height - lay.margin),
                   color=(0.6, 0.6, 0.6), fill=(0.93, 0.93, 0.93), width=0.6)
    lay.y = side_top + 4
    for para in block.sidebar:
        check_encodable(doc, para.text)
        lay.text(para.text, size=9, x0=lay.margin + 8, x1=lay.width - lay.margin - 8, gap=4)
    for index in (1, 0):
        lay.y = top
        x0 = lay.margin + index * (col_w + gutter)
        for para in block.columns[index]:
            check_encodable(doc, para.text)
            lay.text(para.text, size=9.5, x0=x0, x1=x0 + col_w, gap=6)
            if lay.y > side_top - 10:
                raise ValueError(f"{doc.file}: column {index + 1} overflows into the sidebar")
    lay.y = lay.margin
    lay.text(block.title.text, font=BOLD, size=15, gap=0)
    lay.y = lay.height - lay.margin  # the page is full


def set_metadata(pdf: pymupdf.Document, doc: Document) -> None:
    stamp = pdf_date(doc.date)
    pdf.set_metadata({
        "title": doc.title,
        "subject": f"{doc.report_id}, {doc.version_label}, {doc.date}",
        "keywords": f"{doc.report_id}; {doc.version_label}; {doc.date}; {doc.programme}",
        "author": "CMC-KB demo generator",
        "creator": "CMC-KB demo generator",
        "producer": "PyMuPDF",
        "creationDate": stamp,
        "modDate": stamp,
    })


def save_pdf(pdf: pymupdf.Document, path: Path) -> None:
    """Save without a fresh document id or timestamps so identical input gives identical bytes."""
    pdf.save(path, garbage=3, deflate=True, no_new_id=True, reproducible=True)


def write_pdf(doc: Document, path: Path, *, landscape: bool = False) -> None:
    """Write `doc.blocks` (or one page per slide when the document has slides)."""
    pdf = pymupdf.open()
    lay = Layout(pdf, footer=f"{doc.report_id} {doc.version_label}")
    if landscape:
        lay.width, lay.height, lay.scale = lay.height, lay.width, 1.6
    if doc.slides:
        doc.slide_pages = []
        for slide in doc.slides:
            lay.new_page()
            doc.slide_pages.append(lay.number)
            place_blocks(doc, lay, slide)
    else:
        doc.pages = place_blocks(doc, lay, doc.blocks)
    set_metadata(pdf, doc)
    save_pdf(pdf, path)
