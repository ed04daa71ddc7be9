"""Table grids shared by the HTML, Markdown, PPTX and XLSX parsers.

Source formats list a row's cells left to right and leave out slots covered by a merged cell
from an earlier row; placing them on an occupancy grid gives every cell its true column.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.doctree import Block, Cell, table_text

MAX_SPAN = 1000  # hostile spans (rowspan=1e9) would otherwise blow up the grid


@dataclass
class SourceCell:
    text: str
    row_span: int = 1
    column_span: int = 1
    is_header: bool = False


def grid_cells(rows: list[list[SourceCell]], header_rows: int = 0) -> list[Cell]:
    """Place source cells on a grid; cells in the first ``header_rows`` rows (or marked) are headers."""
    taken: set[tuple[int, int]] = set()
    cells: list[Cell] = []
    for r, row in enumerate(rows):
        column = 0
        for source in row:
            while (r, column) in taken:
                column += 1
            row_span = min(max(source.row_span, 1), MAX_SPAN, len(rows) - r)
            column_span = min(max(source.column_span, 1), MAX_SPAN)
            for dr in range(row_span):
                for dc in range(column_span):
                    taken.add((r + dr, column + dc))
            cells.append(
                Cell(row=r, column=column, text=" ".join(source.text.split()), is_header=r < header_rows,
                     row_span=row_span, column_span=column_span)
            )
            column += column_span
    return cells


def leading_header_rows(rows: list[list[SourceCell]]) -> int:
    """Rows at the top whose cells are all marked as headers (HTML <th>)."""
    count = 0
    for row in rows:
        if row and all(c.is_header for c in row):
            count += 1
        else:
            break
    return count if count < len(rows) else 0


def table_block(rows: list[list[SourceCell]], page: int, *, header_rows: int, caption: str = "") -> Block | None:
    """A table block, or None when the table holds no text at all."""
    cells = grid_cells(rows, header_rows)
    if not any(c.text for c in cells):
        return None
    return Block(kind="table", text=table_text(cells), page=page, cells=cells, header_rows=header_rows, caption=caption)
