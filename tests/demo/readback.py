"""Read generated files back with python-docx, PyMuPDF and python-pptx, independently of the writers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import docx
import pymupdf
from docx.oxml.ns import qn
from pptx import Presentation

HEADING = re.compile(r"^Heading(\d)$")


def normalise(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Located:
    section: str
    page: int
    text: str
    table: int | None = None  # 1-based table number
    row: int | None = None
    column: int | None = None


def _text(element) -> str:  # type: ignore[no-untyped-def]
    return "".join(t.text or "" for t in element.iter(qn("w:t")))


@cache
def docx_blocks(path: Path) -> list[Located]:
    """Paragraphs and table cells with section path and page (explicit page breaks, page 1 first).

    Walks the WordprocessingML body directly (style ids, w:br type="page"), as the parser is
    expected to; python-docx only opens the package.
    """
    d = docx.Document(str(path))
    page, path_titles, out, table_no = 1, [], [], 0
    for element in d.element.body.iterchildren():
        if element.tag == qn("w:p"):
            page += sum(1 for b in element.iter(qn("w:br")) if b.get(qn("w:type")) == "page")
            text = _text(element)
            match = HEADING.match(element.style or "")
            if match:
                level = int(match.group(1))
                del path_titles[level - 1:]
                path_titles.append(text)
            if text:
                out.append(Located(" > ".join(path_titles), page, text))
        elif element.tag == qn("w:tbl"):
            table_no += 1
            for r, tr in enumerate(element.iterchildren(qn("w:tr"))):
                for c, tc in enumerate(tr.iterchildren(qn("w:tc"))):
                    out.append(Located(" > ".join(path_titles), page, _text(tc), table_no, r, c))
    return out


@cache
def pdf_page_texts(path: Path) -> list[str]:
    with pymupdf.open(path) as pdf:
        return [normalise(page.get_text()) for page in pdf]


@cache
def pptx_slides(path: Path) -> list[tuple[str, str]]:
    """(title, all text) per slide, tables included."""
    prs = Presentation(str(path))
    out = []
    for slide in prs.slides:
        parts = []
        for shape in slide.shapes:
            if shape.has_text_frame:
                parts.append(shape.text_frame.text)
            if shape.has_table:
                parts += [cell.text for row in shape.table.rows for cell in row.cells]
        out.append((slide.shapes.title.text, normalise(" ".join(parts))))
    return out
