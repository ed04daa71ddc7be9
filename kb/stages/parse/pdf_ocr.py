"""The PDF OCR fallback: pages without a text layer are rasterised with PyMuPDF and OCR'd.

Detection is per page, so a mixed PDF keeps its text layer wherever it has one. OCR paragraphs
come back as the PDF parser's own text blocks (in PDF points), so headings, reading order and
header/footer removal work the same on scanned and digital pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from PIL import Image

from kb.errors import InputFileError
from kb.stages.parse.ocr import OcrOptions, OcrPage, ocr_images
from kb.stages.parse.pdf import TextBlock, join_lines

MIN_TEXT_CHARS = 20  # fewer characters than this on a page with a large image: treat as a scan
MIN_IMAGE_SHARE = 0.25  # images must cover at least this share of the page


@dataclass
class ScannedPage:
    blocks: list[TextBlock]
    confidence: float


def needs_ocr(page: pymupdf.Page) -> bool:
    """A page is a scan when it has (almost) no text but images covering much of it."""
    if len("".join(page.get_text("text").split())) >= MIN_TEXT_CHARS:
        return False
    area = abs(page.rect)
    if not area:
        return False
    covered = sum(abs(pymupdf.Rect(info["bbox"]) & page.rect) for info in page.get_image_info())
    return covered >= MIN_IMAGE_SHARE * area


def page_dpi(page: pymupdf.Page, options: OcrOptions) -> float:
    """The configured DPI, lowered when the page would exceed the pixel limit."""
    width_in, height_in = page.rect.width / 72, page.rect.height / 72
    pixels = width_in * height_in * options.dpi**2
    if pixels <= options.max_pixels:
        return float(options.dpi)
    return (options.max_pixels / (width_in * height_in)) ** 0.5


def render(page: pymupdf.Page, dpi: float) -> Image.Image:
    pixmap = page.get_pixmap(dpi=int(dpi), colorspace=pymupdf.csGRAY, alpha=False)
    return Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)


def ocr_text_blocks(page: OcrPage, scale: float) -> list[TextBlock]:
    """OCR paragraphs as text blocks in PDF points (line height stands in for font size)."""
    blocks = []
    for paragraph in page.paragraphs:
        text = join_lines([line.text for line in paragraph.lines])
        if text:
            x0, y0, x1, y1 = (v * scale for v in paragraph.bbox)
            blocks.append(TextBlock((x0, y0, x1, y1), text, paragraph.line_height * scale, False, len(paragraph.lines)))
    return blocks


def ocr_pdf_pages(document: pymupdf.Document, path: Path, options: OcrOptions) -> dict[int, ScannedPage]:
    """OCR every page without a text layer; keys are 0-based page indexes."""
    indexes = [i for i, page in enumerate(document) if needs_ocr(page)]
    if not indexes:
        return {}
    scales: dict[int, float] = {}

    def images() -> Iterator[Image.Image]:
        for i in indexes:
            page = document[i]
            dpi = page_dpi(page, options)
            scales[i] = 72.0 / int(dpi)
            yield render(page, dpi)

    try:
        results = list(
            ocr_images(images(), languages=options.languages, timeout_s=options.timeout_s, threads=options.threads, source=path)
        )
    except InputFileError:
        raise
    except Exception as exc:  # rasterising a damaged page raises assorted MuPDF errors
        raise InputFileError(str(path), f"cannot rasterise page for OCR: {type(exc).__name__}: {exc}") from exc
    return {
        i: ScannedPage(ocr_text_blocks(result, scales[i]), result.confidence) for i, result in zip(indexes, results)
    }
