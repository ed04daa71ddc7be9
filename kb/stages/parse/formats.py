"""Parsers for the formats beyond DOCX and PDF: PPTX, XLSX, HTML, Markdown, text and images.

Each entry imports its parser lazily (worker processes load only what they parse) and turns any
unexpected library exception on a malformed file into one InputFileError naming the file.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

from kb.doctree import ParsedDocument
from kb.errors import InputFileError
from kb.stages.parse.guard import Limits
from kb.stages.parse.ocr import OcrOptions

Parser = Callable[[Path, str, str, Limits], ParsedDocument]


def guarded(label: str, parse: Parser) -> Parser:
    """Wrap a parser so a malformed file ends in InputFileError, never a crash."""

    def run(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
        try:
            return parse(path, name, sha, limits)
        except InputFileError:
            raise
        except (Exception, RecursionError) as exc:  # third-party parsers raise anything on hostile input
            raise InputFileError(str(path), f"cannot parse {label}: {type(exc).__name__}: {exc}") from exc

    return run


def _pptx(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb.stages.parse.pptx import parse_pptx

    return parse_pptx(path, name, sha, parser_version=version("python-pptx"), max_pages=limits.max_pages)


def _xlsx(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb.stages.parse.xlsx import parse_xlsx

    return parse_xlsx(path, name, sha, parser_version=version("openpyxl"), max_pages=limits.max_pages)


def _html(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb.stages.parse.html import parse_html

    return parse_html(path, name, sha, parser_version=version("beautifulsoup4"))


def _markdown(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb.stages.parse.markdown import parse_markdown

    return parse_markdown(path, name, sha, parser_version=version("markdown-it-py"))


def _text(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb import __version__
    from kb.stages.parse.text import parse_text

    return parse_text(path, name, sha, parser_version=__version__, max_pages=limits.max_pages)


def _image(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb.stages.parse.image import parse_image

    return parse_image(path, name, sha, parser_version=version("pillow"), max_pages=limits.max_pages,
                       ocr=OcrOptions.from_limits(limits))


EXTRA_PARSERS: dict[str, Parser] = {
    ".pptx": guarded("PPTX", _pptx),
    ".xlsx": guarded("XLSX", _xlsx),
    ".html": guarded("HTML", _html),
    ".htm": guarded("HTML", _html),
    ".md": guarded("Markdown", _markdown),
    ".markdown": guarded("Markdown", _markdown),
    ".txt": guarded("text", _text),
    ".png": guarded("image", _image),
    ".jpg": guarded("image", _image),
    ".jpeg": guarded("image", _image),
    ".tif": guarded("image", _image),
    ".tiff": guarded("image", _image),
}
EXTRA_MAGIC: dict[str, bytes] = {".pptx": b"PK\x03\x04", ".xlsx": b"PK\x03\x04"}
