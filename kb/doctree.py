"""The in-memory document tree every parser produces and the lexical stage turns into RDF.

One shape for every format (DOCX, PDF, PPTX, XLSX, HTML, Markdown, text, OCR'd images), so
everything downstream of parsing is format-agnostic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal["paragraph", "list", "table", "figure"]


@dataclass
class Cell:
    """One table cell; merged cells keep their span and appear once, at their top-left slot."""

    row: int
    column: int
    text: str
    is_header: bool = False
    row_span: int = 1
    column_span: int = 1


@dataclass
class Block:
    """A chunk-to-be: one paragraph, list, table or figure, in reading order."""

    kind: BlockKind
    text: str
    page: int
    cells: list[Cell] = field(default_factory=list)
    caption: str = ""
    header_rows: int = 0
    meta: dict[str, str] = field(default_factory=dict)
    language: str = ""  # ISO 639-1 code from language identification; "" when undecided

    def rows(self) -> list[list[Cell]]:
        """Cells grouped by row, in column order."""
        grouped: dict[int, list[Cell]] = {}
        for cell in self.cells:
            grouped.setdefault(cell.row, []).append(cell)
        return [sorted(grouped[r], key=lambda c: c.column) for r in sorted(grouped)]


@dataclass
class Section:
    """A heading and everything under it until the next heading of the same or a higher level."""

    title: str
    level: int
    page: int
    children: list[Section | Block] = field(default_factory=list)

    def sections(self) -> list[Section]:
        return [c for c in self.children if isinstance(c, Section)]

    def blocks(self) -> list[Block]:
        return [c for c in self.children if isinstance(c, Block)]


@dataclass
class ParsedDocument:
    """What a parser knows about one source file."""

    source_name: str
    media_type: str
    sha256: str
    root: Section
    page_count: int
    parser: str
    parser_version: str
    title: str = ""
    date: str = ""
    version: str = ""
    report_id: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    languages: list[str] = field(default_factory=list)  # ISO 639-1 codes, main language first


def table_text(cells: list[Cell]) -> str:
    """Plain-text rendering of a table: one line per row, cells separated by ' | '."""
    block = Block(kind="table", text="", page=0, cells=cells)
    return "\n".join(" | ".join(c.text for c in row) for row in block.rows())


def add_block(stack: list[Section], block: Block) -> None:
    """Append a block to the innermost open section."""
    stack[-1].children.append(block)


def open_section(stack: list[Section], title: str, level: int, page: int) -> Section:
    """Close sections at the same or a deeper level, then open a new one beneath the rest."""
    while len(stack) > 1 and stack[-1].level >= level:
        stack.pop()
    section = Section(title=title, level=level, page=page)
    stack[-1].children.append(section)
    stack.append(section)
    return section
