"""Plain text to document tree: blank lines separate paragraphs, numbered or underlined lines are headings.

Form feeds (``\\f``) start a new page, as in text exported from PDFs and line printers.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import asdict
from pathlib import Path

from kb.doctree import Block, ParsedDocument, Section, add_block, open_section
from kb.errors import InputFileError
from kb.stages.parse.metadata import stated_metadata

MEDIA_TYPE = "text/plain"
NUMBERED_HEADING = re.compile(r"^(\d+(?:\.\d+){0,4})\.?\s+[A-ZÄÖÜÉÈ]\S*")
UNDERLINE = re.compile(r"^(=+|-+)\s*$")
LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)]|[a-z][.)])\s+")


def decode_text(data: bytes, path: Path) -> str:
    """UTF-8 (with or without BOM) or UTF-16 with BOM, else Windows-1252; binary data is refused."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputFileError(str(path), f"invalid UTF-16 text: {exc.reason}") from exc
    if b"\0" in data:
        raise InputFileError(str(path), "binary content (NUL bytes) in a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def heading(lines: list[str]) -> tuple[int, str] | None:
    """(level, title) when a paragraph is a heading: one short numbered line, or a line underlined."""
    if len(lines) == 2 and UNDERLINE.match(lines[1]) and len(lines[0]) <= 120:
        return (1 if lines[1].startswith("=") else 2), lines[0].strip()
    if len(lines) == 1 and len(lines[0]) <= 120 and not lines[0].rstrip().endswith((".", ",", ";", ":")):
        found = NUMBERED_HEADING.match(lines[0].strip())
        if found:
            return found.group(1).count(".") + 1, lines[0].strip()
    return None


def parse_text(path: Path, source_name: str, sha256: str, *, parser_version: str, max_pages: int) -> ParsedDocument:
    """Parse a plain-text file into the shared document tree."""
    text = decode_text(path.read_bytes(), path).replace("\r\n", "\n").replace("\r", "\n")
    pages = text.split("\f")
    if len(pages) > max_pages:
        raise InputFileError(str(path), f"text has {len(pages)} pages, over the limit of {max_pages}")
    root = Section(title="", level=0, page=1)
    stack = [root]
    first_texts: list[str] = []
    title = ""
    for number, page_text in enumerate(pages, start=1):
        for raw in re.split(r"\n\s*\n", page_text):
            lines = [line.rstrip() for line in raw.strip("\n").split("\n") if line.strip()]
            if not lines:
                continue
            if len(first_texts) < 8:
                first_texts.append(" ".join(lines))
            found = heading(lines)
            if found and not first_texts[1:]:
                title = found[1]
            elif found:
                open_section(stack, found[1], found[0], number)
            elif all(LIST_ITEM.match(line) for line in lines):
                add_block(stack, Block(kind="list", text="\n".join(line.strip() for line in lines), page=number))
            else:
                add_block(stack, Block(kind="paragraph", text=" ".join(line.strip() for line in lines), page=number))
    stated = stated_metadata(" ".join(first_texts), path.name)
    return ParsedDocument(
        source_name=source_name,
        media_type=MEDIA_TYPE,
        sha256=sha256,
        root=root,
        page_count=len(pages),
        parser="kb.text",
        parser_version=parser_version,
        title=title,
        **asdict(stated),
    )
