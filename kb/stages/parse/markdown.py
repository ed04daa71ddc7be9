"""Markdown to document tree with markdown-it-py (CommonMark plus GFM tables).

A document that opens with its only level-1 heading uses it as the title; otherwise every heading
is a section. Markdown has no pages: everything is page 1.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from kb.doctree import Block, ParsedDocument, Section, add_block, open_section
from kb.stages.parse.metadata import stated_metadata
from kb.stages.parse.tables import SourceCell, table_block
from kb.stages.parse.text import decode_text

MEDIA_TYPE = "text/markdown"


def inline_text(token: Token) -> str:
    """Plain text of an inline token: markup dropped, soft and hard breaks become spaces."""
    parts = []
    for child in token.children or []:
        if child.type in {"text", "code_inline"}:
            parts.append(child.content)
        elif child.type in {"softbreak", "hardbreak"}:
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return " ".join("".join(parts).split())


class _Walker:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.root = Section(title="", level=0, page=1)
        self.stack = [self.root]
        self.title = ""
        self.texts: list[str] = []
        h1 = [t for t in tokens if t.type == "heading_open" and t.tag == "h1"]
        self.title_token = h1[0] if len(h1) == 1 and tokens and tokens[0] is h1[0] else None

    def walk(self) -> None:
        i = 0
        tokens = self.tokens
        while i < len(tokens):
            token = tokens[i]
            if token.type == "heading_open":
                text = inline_text(tokens[i + 1])
                if token is self.title_token:
                    self.title = text
                elif text:
                    open_section(self.stack, text, int(token.tag[1]), 1)
                i += 3
            elif token.type in {"bullet_list_open", "ordered_list_open"}:
                end = self.closing(i)
                items = [inline_text(t) for t in tokens[i:end] if t.type == "inline"]
                self.block("list", "\n".join(filter(None, items)))
                i = end + 1
            elif token.type == "table_open":
                end = self.closing(i)
                self.table(tokens[i:end])
                i = end + 1
            elif token.type == "inline":
                self.block("paragraph", inline_text(token))
                i += 1
            elif token.type in {"fence", "code_block"}:
                self.block("paragraph", token.content.strip())
                i += 1
            else:
                i += 1

    def closing(self, start: int) -> int:
        """Index of the token that closes the one at ``start`` (same nesting level)."""
        depth = 0
        for j in range(start, len(self.tokens)):
            depth += self.tokens[j].nesting
            if depth == 0:
                return j
        return len(self.tokens) - 1

    def block(self, kind: str, text: str) -> None:
        if text:
            if len(self.texts) < 8:
                self.texts.append(text)
            add_block(self.stack, Block(kind=kind, text=text, page=1))  # type: ignore[arg-type]

    def table(self, tokens: list[Token]) -> None:
        rows: list[list[SourceCell]] = []
        header_rows = 0
        for j, token in enumerate(tokens):
            if token.type == "tr_open":
                rows.append([])
            elif token.type in {"th_open", "td_open"} and rows:
                rows[-1].append(SourceCell(inline_text(tokens[j + 1]), is_header=token.type == "th_open"))
            elif token.type == "thead_close":
                header_rows = len(rows)
        block = table_block(rows, 1, header_rows=header_rows if header_rows < len(rows) else 0)
        if block:
            add_block(self.stack, block)


def parse_markdown(path: Path, source_name: str, sha256: str, *, parser_version: str) -> ParsedDocument:
    """Parse a Markdown file into the shared document tree."""
    text = decode_text(path.read_bytes(), path)
    walker = _Walker(MarkdownIt("commonmark").enable("table").parse(text))
    walker.walk()
    stated = stated_metadata(" ".join(walker.texts), path.name)
    return ParsedDocument(
        source_name=source_name,
        media_type=MEDIA_TYPE,
        sha256=sha256,
        root=walker.root,
        page_count=1,
        parser="markdown-it-py",
        parser_version=parser_version,
        title=walker.title,
        **asdict(stated),
    )
