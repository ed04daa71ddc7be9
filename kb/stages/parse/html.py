"""HTML to document tree with BeautifulSoup: h1-h6 become sections, tables keep their grid.

Scripts, styles, navigation and page chrome are dropped. Text sitting directly in containers
(``<div>text</div>``) becomes a paragraph, so exported pages that skip ``<p>`` lose nothing.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Doctype, ProcessingInstruction

from kb.doctree import Block, ParsedDocument, Section, add_block, open_section
from kb.errors import InputFileError
from kb.stages.parse.metadata import stated_metadata
from kb.stages.parse.tables import SourceCell, leading_header_rows, table_block
from kb.stages.parse.text import decode_text

MEDIA_TYPE = "text/html"
HEADING = re.compile(r"^h([1-6])$")
DROPPED = {"script", "style", "noscript", "template", "head", "nav", "svg", "iframe", "object", "button", "form"}
TEXT_BLOCKS = {"p", "pre", "address", "dt", "dd", "blockquote", "caption", "summary", "figcaption", "center"}
INLINE = {"a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "mark", "q",
          "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr", "img", "label", "del", "ins"}
MAX_DEPTH = 200


def clean(text: str) -> str:
    return " ".join(text.split())


def span(value: str | list[str] | None) -> int:
    try:
        return int(str(value or "1").strip() or "1")
    except ValueError:
        return 1


class _Walker:
    def __init__(self) -> None:
        self.root = Section(title="", level=0, page=1)
        self.stack = [self.root]
        self.texts: list[str] = []
        self.first_h1 = ""
        self.inline: list[str] = []

    def add(self, kind: str, text: str, **extra: object) -> None:
        if text:
            if len(self.texts) < 8:
                self.texts.append(text)
            add_block(self.stack, Block(kind=kind, text=text, page=1, **extra))  # type: ignore[arg-type]

    def flush_inline(self) -> None:
        self.add("paragraph", clean(" ".join(self.inline)))
        self.inline.clear()

    def walk(self, element: Tag, depth: int = 0) -> None:
        for child in element.children:
            if isinstance(child, (Comment, Doctype, ProcessingInstruction)):
                continue
            if isinstance(child, NavigableString):
                if child.strip():
                    self.inline.append(str(child))
                continue
            if not isinstance(child, Tag) or child.name in DROPPED:
                continue
            if child.name in INLINE:
                self.inline.append(child.get_text(" "))
                continue
            self.flush_inline()
            heading = HEADING.match(child.name)
            if heading:
                text = clean(child.get_text(" "))
                if text:
                    self.first_h1 = self.first_h1 or (text if heading.group(1) == "1" else "")
                    open_section(self.stack, text, int(heading.group(1)), 1)
            elif child.name in TEXT_BLOCKS:
                self.add("paragraph", clean(child.get_text(" ")))
            elif child.name in {"ul", "ol", "dl"}:
                items = [clean(li.get_text(" ")) for li in child.find_all(["li", "dt", "dd"], recursive=False)]
                self.add("list", "\n".join(filter(None, items)))
            elif child.name == "table":
                self.table(child)
            elif child.name == "figure":
                caption = child.find("figcaption")
                image = child.find("img")
                text = clean(caption.get_text(" ")) if caption else clean(str(image.get("alt", ""))) if image else ""
                self.add("figure", text, caption=text)
            elif depth < MAX_DEPTH:
                self.walk(child, depth + 1)
        self.flush_inline()

    def table(self, table: Tag) -> None:
        rows: list[list[SourceCell]] = []
        in_head = 0
        for tr in table.find_all("tr"):
            if tr.find_parent("table") is not table:
                continue
            cells = [
                SourceCell(clean(td.get_text(" ")), span(td.get("rowspan")), span(td.get("colspan")), td.name == "th")
                for td in tr.find_all(["td", "th"], recursive=False)
            ]
            if tr.find_parent("thead") is not None and tr.find_parent("table") is table:
                in_head = len(rows) + 1
            rows.append(cells)
        caption = table.find("caption")
        header_rows = in_head if 0 < in_head < len(rows) else leading_header_rows(rows)
        block = table_block(rows, 1, header_rows=header_rows, caption=clean(caption.get_text(" ")) if caption else "")
        if block:
            add_block(self.stack, block)


def parse_html(path: Path, source_name: str, sha256: str, *, parser_version: str) -> ParsedDocument:
    """Parse an HTML file into the shared document tree."""
    text = decode_text(path.read_bytes(), path)
    try:
        soup = BeautifulSoup(text, "html.parser")
    except Exception as exc:  # html.parser raises AssertionError / ValueError on some garbage
        raise InputFileError(str(path), f"cannot parse HTML: {type(exc).__name__}: {exc}") from exc
    walker = _Walker()
    walker.walk(soup.body or soup)
    title_tag = soup.find("title")
    stated = stated_metadata(" ".join(walker.texts), path.name)
    return ParsedDocument(
        source_name=source_name,
        media_type=MEDIA_TYPE,
        sha256=sha256,
        root=walker.root,
        page_count=1,
        parser="beautifulsoup4",
        parser_version=parser_version,
        title=clean(title_tag.get_text(" ")) if title_tag else walker.first_h1,
        **asdict(stated),
    )
