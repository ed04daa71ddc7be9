"""Fixtures for the ingestion tests: files of every format, built in code, and a parse helper."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.doctree import ParsedDocument
from kb.stages.parse import parse_file
from kb.stages.parse.guard import Limits

LIMITS = Limits(max_file_bytes=50_000_000, max_unzipped_bytes=200_000_000, max_zip_entries=5000, max_pages=200,
                ocr_threads=2)


@pytest.fixture(scope="session")
def limits() -> Limits:
    return LIMITS


@pytest.fixture(scope="session")
def parse():
    return parse_with


def parse_with(path: Path, limits: Limits = LIMITS) -> ParsedDocument:
    return parse_file(path, path.name, limits)


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from kb import testing_formats as F

    folder = tmp_path_factory.mktemp("formats")
    F.write_pptx(folder / "deck.pptx")
    F.write_xlsx(folder / "screen.xlsx")
    F.write_html(folder / "page.html")
    F.write_markdown(folder / "report.md")
    F.write_text(folder / "report.txt")
    F.write_german_pdf(folder / "bericht.pdf")
    return folder
