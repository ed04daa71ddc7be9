"""Parsers: one module per format, all producing kb.doctree.ParsedDocument."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

from kb.doctree import ParsedDocument
from kb.errors import InputFileError
from kb.stages.lexical.language import annotate_languages
from kb.stages.parse.formats import EXTRA_MAGIC, EXTRA_PARSERS
from kb.stages.parse.guard import Limits, check_file

Parser = Callable[[Path, str, str, Limits], ParsedDocument]


def _docx(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb.stages.parse.docx import parse_docx

    return parse_docx(path, name, sha, parser_version=version("python-docx"))


def _pdf(path: Path, name: str, sha: str, limits: Limits) -> ParsedDocument:
    from kb.stages.parse.ocr import OcrOptions
    from kb.stages.parse.pdf import parse_pdf

    return parse_pdf(path, name, sha, parser_version=version("pymupdf"), max_pages=limits.max_pages,
                     ocr=OcrOptions.from_limits(limits))


PARSERS: dict[str, Parser] = {".docx": _docx, ".pdf": _pdf, **EXTRA_PARSERS}
MAGIC: dict[str, bytes] = {".pdf": b"%PDF", ".docx": b"PK\x03\x04", **EXTRA_MAGIC}


def supported_suffixes() -> list[str]:
    return sorted(PARSERS)


def parse_file(path: Path, source_name: str, limits: Limits) -> ParsedDocument:
    """Check and parse one file; every failure becomes an InputFileError naming the file."""
    suffix = path.suffix.lower()
    if suffix not in PARSERS:
        raise InputFileError(str(path), f"unsupported file type {suffix or '(none)'}; supported: {', '.join(supported_suffixes())}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputFileError(str(path), f"cannot read file: {exc.strerror}") from exc
    check_file(path, data, limits)
    magic = MAGIC.get(suffix)
    if magic and not data.lstrip()[: len(magic)] == magic:
        raise InputFileError(str(path), f"content is not {suffix.lstrip('.').upper()} (wrong file type or corrupt header)")
    sha = hashlib.sha256(data).hexdigest()
    return annotate_languages(PARSERS[suffix](path, source_name, sha, limits), limits.detect_languages)
