"""XLSX to document tree with openpyxl (read-only, cached values): one section per sheet.

A sheet splits into regions at empty rows. Inside a region, leading rows with a single text cell
are captions or notes (paragraphs); the rest is a table. The table's first row is a header when
all its cells are text and some column below it holds a number or date, or when it is bold.
The sheet's position is its page; each table records its cell range (``cmc:cellRange``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils import get_column_letter

from kb.doctree import Block, ParsedDocument, Section, add_block, open_section
from kb.errors import InputFileError
from kb.stages.parse.metadata import stated_metadata
from kb.stages.parse.tables import SourceCell, table_block

MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MAX_CELLS = 2_000_000  # per workbook: a sheet claiming a million rows would otherwise run for minutes


def cell_text(value: Any) -> str:
    """Cell values as a reader sees them: integral floats without '.0', dates in ISO form."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return " ".join(str(value).split())


Row = tuple[int, list[Any], list[bool]]  # (1-based row number, values, bold flags)


def regions(rows: list[Row]) -> list[list[Row]]:
    """Runs of consecutive non-empty rows."""
    out: list[list[Row]] = []
    previous = -1
    for row in rows:
        if row[0] != previous + 1 or not out:
            out.append([])
        out[-1].append(row)
        previous = row[0]
    return out


def has_header(values: list[list[Any]], bold: list[bool]) -> bool:
    first = [v for v in values[0] if v is not None]
    if len(values) < 2 or not first or not all(isinstance(v, str) for v in first):
        return False
    if first and all(bold[: len(values[0])][i] for i, v in enumerate(values[0]) if v is not None):
        return True
    typed = (int, float, dt.date, dt.datetime, dt.time)
    return any(isinstance(v, typed) and not isinstance(v, bool) for row in values[1:] for v in row)


def region_blocks(region: list[Row], page: int) -> list[Block]:
    """Caption paragraphs, then the table of one region."""
    blocks: list[Block] = []
    while region and sum(v is not None for v in region[0][1]) == 1 and len(region) > 1:
        values = region[0][1]
        text = next(cell_text(v) for v in values if v is not None)
        blocks.append(Block(kind="paragraph", text=text, page=page))
        region = region[1:]
    columns = [i for i in range(max(len(r[1]) for r in region)) if any(i < len(r[1]) and r[1][i] is not None for r in region)]
    if not columns:
        return blocks
    first, last = columns[0], columns[-1]
    values = [(r[1] + [None] * (last + 1))[first : last + 1] for r in region]
    bold = (region[0][2] + [False] * (last + 1))[first : last + 1]
    if len(region) == 1 and sum(v is not None for v in values[0]) == 1:
        text = next(cell_text(v) for v in values[0] if v is not None)
        return blocks + [Block(kind="paragraph", text=text, page=page)]
    header_rows = 1 if has_header(values, bold) else 0
    table = table_block([[SourceCell(cell_text(v)) for v in row] for row in values], page, header_rows=header_rows)
    if table is not None:
        table.meta["cellRange"] = f"{get_column_letter(first + 1)}{region[0][0]}:{get_column_letter(last + 1)}{region[-1][0]}"
        table.caption = blocks[-1].text if blocks else ""
        blocks.append(table)
    return blocks


def sheet_rows(sheet: Any, budget: list[int], path: Path) -> list[Row]:
    rows: list[Row] = []
    for number, cells in enumerate(sheet.iter_rows(min_row=1), start=1):
        budget[0] -= len(cells)
        if budget[0] < 0:
            raise InputFileError(str(path), f"workbook has more than {MAX_CELLS} cells")
        values = [getattr(c, "value", None) for c in cells]
        values = [None if isinstance(v, str) and not v.strip() else v for v in values]
        if any(v is not None for v in values):
            bold = [bool(getattr(getattr(c, "font", None), "b", False)) for c in cells]
            rows.append((number, values, bold))
    return rows


def parse_xlsx(path: Path, source_name: str, sha256: str, *, parser_version: str, max_pages: int) -> ParsedDocument:
    """Parse an XLSX workbook into the shared document tree."""
    try:
        workbook = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types on corrupt packages
        raise InputFileError(str(path), f"cannot read XLSX: {type(exc).__name__}: {exc}") from exc
    try:
        sheets = workbook.worksheets
        if len(sheets) > max_pages:
            raise InputFileError(str(path), f"workbook has {len(sheets)} sheets, over the limit of {max_pages}")
        root = Section(title="", level=0, page=1)
        stack = [root]
        budget = [MAX_CELLS]
        first_texts: list[str] = []
        for number, sheet in enumerate(sheets, start=1):
            open_section(stack, sheet.title, 1, number)
            for region in regions(sheet_rows(sheet, budget, path)):
                for block in region_blocks(region, number):
                    add_block(stack, block)
                    if len(first_texts) < 8:
                        first_texts.append(block.text)
        props = workbook.properties
    finally:
        workbook.close()
    stated = stated_metadata(" ".join(filter(None, [props.identifier, props.subject, props.keywords])),
                             " ".join(first_texts), path.name)
    return ParsedDocument(
        source_name=source_name,
        media_type=MEDIA_TYPE,
        sha256=sha256,
        root=root,
        page_count=max(len(sheets), 1),
        parser="openpyxl",
        parser_version=parser_version,
        title=(props.title or "").strip(),
        **asdict(stated),
    )
