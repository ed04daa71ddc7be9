"""PPTX to document tree with python-pptx: one section per slide, the slide number as page.

Each slide's section holds its body shapes in reading order (the PDF parser's column rule
applied to shape boxes), tables with merged cells, picture alt texts as figures, and the speaker
notes in a "Speaker notes" subsection. Date, footer and slide-number placeholders are dropped.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import pptx
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER
from pptx.shapes.base import BaseShape

from kb.doctree import Block, ParsedDocument, Section, add_block, open_section
from kb.errors import InputFileError
from kb.stages.parse.metadata import stated_metadata
from kb.stages.parse.pdf import TextBlock, reading_order
from kb.stages.parse.tables import SourceCell, table_block

MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
TITLES = {PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE}
CHROME = {PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER, PP_PLACEHOLDER.HEADER}
NOTES_TITLE = "Speaker notes"


@dataclass
class Item:
    shape: BaseShape
    box: tuple[float, float, float, float]


def placeholder_type(shape: BaseShape) -> PP_PLACEHOLDER | None:
    if not shape.is_placeholder:
        return None
    try:
        return shape.placeholder_format.type
    except (ValueError, AttributeError):
        return None


def leaf_shapes(shapes: object) -> list[BaseShape]:
    """Shapes with groups flattened (a group's members are read together, top to bottom)."""
    out: list[BaseShape] = []
    for shape in shapes:  # type: ignore[attr-defined]
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            out.extend(sorted(leaf_shapes(shape.shapes), key=lambda s: (s.top or 0, s.left or 0)))
        else:
            out.append(shape)
    return out


def box(shape: BaseShape) -> tuple[float, float, float, float]:
    left, top = float(shape.left or 0), float(shape.top or 0)
    return (left, top, left + float(shape.width or 0), top + float(shape.height or 0))


def frame_block(shape: BaseShape, page: int) -> Block | None:
    """A text frame: one paragraph, or a list when it has several (bullets on a slide)."""
    paragraphs = [" ".join(p.text.split()) for p in shape.text_frame.paragraphs]
    paragraphs = [p for p in paragraphs if p]
    if not paragraphs:
        return None
    if len(paragraphs) == 1:
        return Block(kind="paragraph", text=paragraphs[0], page=page)
    return Block(kind="list", text="\n".join(paragraphs), page=page)


def table_of(shape: BaseShape, page: int) -> Block | None:
    table = shape.table
    rows: list[list[SourceCell]] = []
    for row in table.rows:
        cells = []
        for cell in row.cells:
            if cell.is_spanned:
                continue
            cells.append(SourceCell(cell.text, cell.span_height if cell.is_merge_origin else 1,
                                    cell.span_width if cell.is_merge_origin else 1))
        rows.append(cells)
    header_rows = 1 if table.first_row and len(rows) > 1 else 0
    return table_block(rows, page, header_rows=header_rows)


def shape_block(shape: BaseShape, page: int) -> Block | None:
    if getattr(shape, "has_table", False):
        return table_of(shape, page)
    if shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
        alt = " ".join(shape._element._nvXxPr.cNvPr.get("descr", "").split())
        return Block(kind="figure", text=alt, page=page, caption=alt) if alt else None
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        return frame_block(shape, page)
    return None


def slide_blocks(slide: object, page: int, width: float) -> tuple[str, list[Block]]:
    """The slide's title and its other blocks in reading order."""
    title = ""
    order: list[TextBlock] = []
    by_key: dict[int, BaseShape] = {}
    for shape in leaf_shapes(slide.shapes):  # type: ignore[attr-defined]
        kind = placeholder_type(shape)
        if kind in CHROME:
            continue
        if kind in TITLES and not title and shape.has_text_frame:
            title = " ".join(shape.text_frame.text.split())
            continue
        entry = TextBlock(box(shape), "", 0.0, False, 0)
        by_key[id(entry)] = shape
        order.append(entry)
    blocks = [shape_block(by_key[id(entry)], page) for entry in reading_order(order, width)]
    return title, [b for b in blocks if b is not None]


def parse_pptx(path: Path, source_name: str, sha256: str, *, parser_version: str, max_pages: int) -> ParsedDocument:
    """Parse a PPTX deck into the shared document tree."""
    try:
        deck = pptx.Presentation(str(path))
    except Exception as exc:  # python-pptx raises many types on corrupt packages
        raise InputFileError(str(path), f"cannot read PPTX: {type(exc).__name__}: {exc}") from exc
    slides = list(deck.slides)
    if len(slides) > max_pages:
        raise InputFileError(str(path), f"deck has {len(slides)} slides, over the limit of {max_pages}")
    width = float(deck.slide_width or 9144000)
    root = Section(title="", level=0, page=1)
    stack = [root]
    first_texts: list[str] = []
    for number, slide in enumerate(slides, start=1):
        title, blocks = slide_blocks(slide, number, width)
        open_section(stack, title or f"Slide {number}", 1, number)
        first_texts.extend([title] + [b.text for b in blocks][:3] if number <= 2 else [])
        for block in blocks:
            add_block(stack, block)
        if slide.has_notes_slide:
            notes = [" ".join(p.split()) for p in slide.notes_slide.notes_text_frame.text.split("\n")] \
                if slide.notes_slide.notes_text_frame is not None else []
            notes = [n for n in notes if n]
            if notes:
                open_section(stack, NOTES_TITLE, 2, number)
                add_block(stack, Block(kind="paragraph", text=" ".join(notes), page=number))
    props = deck.core_properties
    stated = stated_metadata(" ".join(filter(None, [props.identifier, props.subject, props.keywords])),
                             " ".join(first_texts), path.name)
    return ParsedDocument(
        source_name=source_name,
        media_type=MEDIA_TYPE,
        sha256=sha256,
        root=root,
        page_count=len(slides),
        parser="python-pptx",
        parser_version=parser_version,
        title=(props.title or "").strip() or next((t for t in first_texts if t), ""),
        **asdict(stated),
    )
