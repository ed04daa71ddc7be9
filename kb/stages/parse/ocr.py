"""OCR with Tesseract (pytesseract): word boxes and confidences regrouped into paragraphs.

Tesseract's own OpenMP threading collapses when several OCR processes share the cores, so each
Tesseract call runs single-threaded (``OMP_THREAD_LIMIT=1``, set by the parse worker) and pages
are OCR'd concurrently instead: ``Limits.ocr_threads`` Tesseract processes per parse worker.
A file's pages share one time budget (``Limits.ocr_timeout_s``); a file over it fails as a whole.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from pathlib import Path

import pytesseract
from PIL import Image

from kb.doctree import Block, ParsedDocument, Section
from kb.errors import InputFileError
from kb.stages.parse.guard import Limits

ENGINE = "tesseract"
PAGE_SEGMENTATION = "--psm 3"  # fully automatic layout analysis: columns and blocks


@dataclass(frozen=True)
class OcrOptions:
    languages: str = "eng+deu+fra"
    dpi: int = 300
    timeout_s: float = 300.0
    threads: int = 1
    max_pixels: int = 80_000_000

    @classmethod
    def from_limits(cls, limits: Limits) -> OcrOptions:
        return cls(
            languages=limits.ocr_languages,
            dpi=limits.ocr_dpi,
            timeout_s=limits.ocr_timeout_s,
            threads=max(1, limits.ocr_threads),
            max_pixels=limits.max_image_pixels,
        )


@dataclass
class OcrLine:
    text: str
    height: float


@dataclass
class OcrParagraph:
    """One Tesseract paragraph: its box in image pixels, its lines and mean word confidence."""

    bbox: tuple[float, float, float, float]
    lines: list[OcrLine]
    confidence: float

    @property
    def line_height(self) -> float:
        return statistics.median(line.height for line in self.lines)


@dataclass
class OcrPage:
    width: int
    height: int
    paragraphs: list[OcrParagraph] = field(default_factory=list)
    confidence: float = 0.0  # mean word confidence (0-100) over the page
    words: int = 0


@lru_cache(maxsize=1)
def engine_version() -> str:
    """Tesseract's version string, e.g. '5.3.0' (recorded in the graph next to the text)."""
    return str(pytesseract.get_tesseract_version())


def engine_label(languages: str) -> str:
    return f"{ENGINE} {engine_version()} ({languages})"


def page_from_data(data: dict[str, list], width: int, height: int) -> OcrPage:
    """Rebuild paragraphs from image_to_data's word table (levels 4 = line, 5 = word)."""
    paragraphs: dict[tuple[int, int], dict[int, list[int]]] = {}
    for i, level in enumerate(data["level"]):
        if level == 5 and str(data["text"][i]).strip():
            key = (data["block_num"][i], data["par_num"][i])
            paragraphs.setdefault(key, {}).setdefault(data["line_num"][i], []).append(i)
    page = OcrPage(width=width, height=height)
    all_confidences: list[float] = []
    for key in sorted(paragraphs):
        lines: list[OcrLine] = []
        confidences: list[float] = []
        x0 = y0 = float("inf")
        x1 = y1 = 0.0
        for line_num in sorted(paragraphs[key]):
            words = sorted(paragraphs[key][line_num], key=lambda i: data["word_num"][i])
            text = " ".join(str(data["text"][i]).strip() for i in words)
            top = min(data["top"][i] for i in words)
            bottom = max(data["top"][i] + data["height"][i] for i in words)
            lines.append(OcrLine(text=text, height=float(bottom - top)))
            for i in words:
                confidences.append(max(float(data["conf"][i]), 0.0))
                x0, y0 = min(x0, data["left"][i]), min(y0, data["top"][i])
                x1 = max(x1, data["left"][i] + data["width"][i])
                y1 = max(y1, data["top"][i] + data["height"][i])
        page.paragraphs.append(OcrParagraph((x0, y0, x1, y1), lines, statistics.fmean(confidences)))
        all_confidences.extend(confidences)
    page.words = len(all_confidences)
    page.confidence = statistics.fmean(all_confidences) if all_confidences else 0.0
    return page


def ocr_image(image: Image.Image, *, languages: str, timeout_s: float, source: Path) -> OcrPage:
    """OCR one page image; Tesseract failures and timeouts become InputFileError."""
    try:
        data = pytesseract.image_to_data(
            image, lang=languages, config=PAGE_SEGMENTATION, output_type=pytesseract.Output.DICT, timeout=timeout_s
        )
    except pytesseract.TesseractError as exc:
        raise InputFileError(str(source), f"OCR failed: {str(exc.message).strip() or exc.status}") from exc
    except RuntimeError as exc:  # pytesseract signals its timeout with a bare RuntimeError
        raise InputFileError(str(source), f"OCR time limit exceeded ({exc})") from exc
    return page_from_data(data, image.width, image.height)


def ocr_images(
    images: Iterable[Image.Image], *, languages: str, timeout_s: float, threads: int, source: Path
) -> Iterator[OcrPage]:
    """OCR page images in order, ``threads`` Tesseract processes at a time, within one time budget.

    Images are pulled in batches so that only ``threads`` rasterised pages are held at once.
    """
    deadline = time.monotonic() + timeout_s
    iterator = iter(images)
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        while batch := list(islice(iterator, max(1, threads))):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise InputFileError(str(source), f"OCR time limit of {timeout_s:g} s exceeded")
            futures = [
                pool.submit(ocr_image, image, languages=languages, timeout_s=remaining, source=source) for image in batch
            ]
            yield from (future.result() for future in futures)


def grayscale(image: Image.Image) -> Image.Image:
    """8-bit grey for Tesseract: handles palette, CMYK, 16-bit and 1-bit scans alike."""
    if image.mode == "L":
        return image
    if image.mode in {"I;16", "I;16B", "I;16L", "I"}:
        return image.point(lambda v: v / 256).convert("L")
    if image.mode in {"RGBA", "LA", "PA"} or (image.mode == "P" and "transparency" in image.info):
        background = Image.new("RGB", image.size, "white")
        rgba = image.convert("RGBA")
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background.convert("L")
    return image.convert("L")


def iter_blocks(section: Section) -> Iterator[Block]:
    for child in section.children:
        if isinstance(child, Section):
            yield from iter_blocks(child)
        else:
            yield child


def record_ocr(parsed: ParsedDocument, confidences: dict[int, float], options: OcrOptions) -> ParsedDocument:
    """Mark OCR'd chunks with their page's mean confidence and the document with the engine used.

    Args:
        parsed: the document tree; blocks on pages in ``confidences`` came from OCR.
        confidences: 1-based page number to mean word confidence (0-100).
        options: the OCR settings used.
    """
    if not confidences:
        return parsed
    for block in iter_blocks(parsed.root):
        if block.page in confidences:
            block.meta["textSource"] = "ocr"
            block.meta["ocrConfidence"] = f"{confidences[block.page]:.2f}"
    parsed.meta["ocrEngine"] = engine_label(options.languages)
    parsed.meta["ocrLanguages"] = options.languages
    parsed.meta["ocrDpi"] = str(options.dpi)
    parsed.meta["ocrPages"] = " ".join(str(p) for p in sorted(confidences))
    parsed.meta["ocrPageConfidence"] = " ".join(f"{p}:{confidences[p]:.2f}" for p in sorted(confidences))
    return parsed
