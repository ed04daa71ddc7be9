"""Build the lexical RDF graph of one parsed document (see docs/model.md).

The document text is every heading and chunk joined by blank lines; every span's offsets index
into it, so ``text[begin:end]`` gives back the heading or chunk text exactly.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode, Quad

from kb import __version__
from kb import vocab as V
from kb.doctree import Block, Cell, ParsedDocument, Section, table_text
from kb.iris import chunk_iri, doc_id, document_iri, section_iri

SEPARATOR = "\n\n"
KIND_CLASS = {"paragraph": V.PARAGRAPH, "list": V.LIST, "table": V.TABLE, "figure": V.FIGURE}
KIND_NAME = {"paragraph": "text", "list": "list", "table": "table", "figure": "figure"}


def integer(value: int) -> Literal:
    return Literal(str(value), datatype=NamedNode(V.XSD + "integer"))


def non_negative(value: int) -> Literal:
    return Literal(str(value), datatype=NamedNode(V.XSD + "nonNegativeInteger"))


def boolean(value: bool) -> Literal:
    return Literal("true" if value else "false", datatype=NamedNode(V.XSD + "boolean"))


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class LexicalGraph:
    """Triples of one document plus the counts the CLI summary prints."""

    doc_id: str
    document: str
    triples: list[tuple[NamedNode, NamedNode, NamedNode | Literal]] = field(default_factory=list)
    text: str = ""
    sections: int = 0
    chunks: int = 0
    tables: int = 0
    pages: int = 0

    def quads(self, graph: str) -> list[Quad]:
        g = NamedNode(graph)
        return [Quad(s, p, o, g) for s, p, o in self.triples]


def row_windows(block: Block, window: int) -> list[list[Cell]]:
    """Split a long table into windows of data rows, each repeating the header rows."""
    rows = block.rows()
    header = [c for row in rows[: block.header_rows] for c in row]
    body = rows[block.header_rows :]
    if len(body) <= window:
        return [block.cells]
    return [header + [c for row in body[i : i + window] for c in row] for i in range(0, len(body), window)]


class _Builder:
    def __init__(self, parsed: ParsedDocument, base: str, row_window: int) -> None:
        self.parsed = parsed
        self.base = base
        self.row_window = row_window
        self.id = doc_id(parsed.source_name)
        self.doc = NamedNode(document_iri(base, self.id))
        self.out = LexicalGraph(doc_id=self.id, document=self.doc.value, pages=parsed.page_count)
        self.pieces: list[str] = []
        self.offset = 0
        self.index = 0
        self.previous: NamedNode | None = None

    def add(self, s: NamedNode, p: NamedNode, o: NamedNode | Literal) -> None:
        self.out.triples.append((s, p, o))

    def span(self, node: NamedNode, text: str) -> None:
        """Append text to the document text and record the node's offsets into it."""
        if self.pieces:
            self.pieces.append(SEPARATOR)
            self.offset += len(SEPARATOR)
        begin = self.offset
        self.pieces.append(text)
        self.offset += len(text)
        self.add(node, V.NIF_BEGIN, non_negative(begin))
        self.add(node, V.NIF_END, non_negative(self.offset))
        self.add(node, V.NIF_REFERENCE_CONTEXT, self.doc)

    def section(self, section: Section, path: tuple[int, ...], parent: NamedNode, titles: tuple[str, ...]) -> None:
        node = NamedNode(section_iri(self.base, self.id, path))
        self.out.sections += 1
        self.add(node, V.TYPE, V.SECTION)
        self.add(node, V.TITLE, Literal(section.title))
        self.add(node, V.HEADING_LEVEL, integer(section.level))
        self.add(node, V.SECTION_PATH, Literal(" > ".join(titles)))
        self.add(node, V.PAGE, integer(section.page))
        self.add(node, V.IS_PART_OF, parent)
        self.span(node, section.title)
        self.children(section, path, node, titles)

    def children(self, section: Section, path: tuple[int, ...], node: NamedNode, titles: tuple[str, ...]) -> None:
        number = 0
        for child in section.children:
            if isinstance(child, Section):
                number += 1
                self.section(child, path + (number,), node, titles + (child.title,))
            elif child.kind == "table":
                windows = row_windows(child, self.row_window)
                for w, cells in enumerate(windows):
                    self.chunk(child, node, table_text(cells), cells, w if len(windows) > 1 else None)
            else:
                self.chunk(child, node, child.text, [], None)

    def chunk(self, block: Block, parent: NamedNode, text: str, cells: list[Cell], window: int | None) -> None:
        if not text.strip():
            return
        node = NamedNode(chunk_iri(self.base, self.id, self.index))
        self.out.chunks += 1
        self.add(node, V.TYPE, V.CHUNK)
        self.add(node, V.TYPE, KIND_CLASS[block.kind])
        self.add(node, V.CHUNK_KIND, Literal(KIND_NAME[block.kind]))
        self.add(node, V.NIF_ANCHOR_OF, Literal(text, language=block.language) if block.language else Literal(text))
        self.add(node, V.PAGE, integer(block.page))
        self.add(node, V.READING_INDEX, non_negative(self.index))
        self.add(node, V.CONTENT_HASH, Literal(sha256_text(text)))
        self.add(node, V.IS_PART_OF, parent)
        if block.caption:
            self.add(node, V.COMMENT, Literal(block.caption))
        for key, value in sorted(block.meta.items()):
            self.add(node, NamedNode(V.CMC + key), Literal(value))
        self.span(node, text)
        if block.kind == "table":
            self.out.tables += 1 if not window else 0
            if window is not None:
                self.add(node, V.ROW_WINDOW, non_negative(window))
            self.table(node, block, cells)
        if self.previous is not None:
            self.add(self.previous, V.NEXT_CHUNK, node)
        self.previous = node
        self.index += 1

    def table(self, node: NamedNode, block: Block, cells: list[Cell]) -> None:
        headers: dict[int, str] = {}
        for cell in block.cells:
            if cell.is_header:
                headers[cell.column] = " ".join(filter(None, [headers.get(cell.column, ""), cell.text]))
        for cell in cells:
            cell_node = NamedNode(f"{node.value}/cell/r{cell.row}c{cell.column}")
            self.add(node, V.HAS_CELL, cell_node)
            self.add(cell_node, V.TYPE, V.TABLE_CELL)
            self.add(cell_node, V.ROW_INDEX, non_negative(cell.row))
            self.add(cell_node, V.COLUMN_INDEX, non_negative(cell.column))
            self.add(cell_node, V.CELL_TEXT, Literal(cell.text))
            self.add(cell_node, V.IS_HEADER, boolean(cell.is_header))
            if cell.row_span > 1:
                self.add(cell_node, V.ROW_SPAN, integer(cell.row_span))
            if cell.column_span > 1:
                self.add(cell_node, V.COLUMN_SPAN, integer(cell.column_span))
            if not cell.is_header and headers.get(cell.column):
                self.add(cell_node, V.COLUMN_HEADER, Literal(headers[cell.column]))

    def document(self) -> None:
        p = self.parsed
        doc = self.doc
        self.add(doc, V.TYPE, V.DOCUMENT)
        self.add(doc, V.TYPE, V.NIF_CONTEXT)
        self.add(doc, V.TYPE, V.PROV_ENTITY)
        self.add(doc, V.TITLE, Literal(p.title or p.source_name.rsplit("/", 1)[-1]))
        self.add(doc, V.FILE_NAME, Literal(p.source_name))
        self.add(doc, V.FORMAT, Literal(p.media_type))
        self.add(doc, V.BYTE_HASH, Literal(p.sha256))
        self.add(doc, V.PAGE_COUNT, integer(p.page_count))
        if p.report_id:
            self.add(doc, V.IDENTIFIER, Literal(p.report_id))
        if p.version:
            self.add(doc, V.VERSION, Literal(p.version))
        if p.date:
            self.add(doc, V.DATE, Literal(p.date, datatype=NamedNode(V.XSD + "date")))
        for language in p.languages:
            self.add(doc, V.LANGUAGE, Literal(language, datatype=NamedNode(V.XSD + "language")))
        for key, value in sorted(p.meta.items()):
            self.add(doc, NamedNode(V.CMC + key), Literal(value))
        activity = NamedNode(f"{doc.value}/parse")
        agent = NamedNode(f"{self.base}agent/cmc-kb/{__version__}")
        self.add(doc, V.WAS_GENERATED_BY, activity)
        self.add(activity, V.TYPE, V.PROV_ACTIVITY)
        self.add(activity, V.WAS_ASSOCIATED_WITH, agent)
        self.add(activity, V.SOFTWARE_VERSION, Literal(f"{p.parser} {p.parser_version}"))
        self.add(agent, V.TYPE, V.PROV_SOFTWARE)
        self.add(agent, V.SOFTWARE_VERSION, Literal(f"cmc-kb {__version__}"))
        self.children(p.root, (), doc, ())
        self.out.text = "".join(self.pieces)
        self.add(doc, V.NIF_IS_STRING, Literal(self.out.text))


def build_lexical_graph(parsed: ParsedDocument, *, base_iri: str, row_window: int) -> LexicalGraph:
    """All triples of one document's lexical tree."""
    builder = _Builder(parsed, base_iri, row_window)
    builder.document()
    return builder.out
