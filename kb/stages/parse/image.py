"""Image files (PNG, JPEG, TIFF incl. multi-page) to document tree through OCR.

Pillow decodes and checks the image (format, pixel limit, frame count, truncation) so a broken
file fails with a clear reason before Tesseract sees it. Each frame then becomes one page of an
in-memory PDF sized so that rendering at the OCR resolution gives back the original pixels, and
the PDF parser's OCR path does the rest: one code path for scans, whether PDF or image.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pymupdf
from PIL import Image, ImageSequence, UnidentifiedImageError

from kb.doctree import ParsedDocument
from kb.errors import InputFileError
from kb.stages.parse.ocr import OcrOptions, grayscale
from kb.stages.parse.pdf import parse_pdf_document

MEDIA_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "TIFF": "image/tiff", "MPO": "image/jpeg"}
SUFFIX_FORMATS = {".png": {"PNG"}, ".jpg": {"JPEG", "MPO"}, ".jpeg": {"JPEG", "MPO"}, ".tif": {"TIFF"}, ".tiff": {"TIFF"}}


def frames(image: Image.Image, path: Path, max_pages: int, max_pixels: int) -> Iterator[Image.Image]:
    """Decoded 8-bit grey frames, refusing too many frames or too many pixels per frame."""
    count = getattr(image, "n_frames", 1)
    if count > max_pages:
        raise InputFileError(str(path), f"image has {count} frames, over the page limit of {max_pages}")
    for frame in ImageSequence.Iterator(image):
        width, height = frame.size
        if width * height > max_pixels:
            raise InputFileError(str(path), f"image is {width}x{height} pixels, over the limit of {max_pixels}")
        if not width or not height:
            raise InputFileError(str(path), "image has no pixels")
        frame.load()
        yield grayscale(frame)


def image_pdf(path: Path, expected: set[str], options: OcrOptions, max_pages: int) -> tuple[pymupdf.Document, str]:
    """Decode the image file and wrap each frame as a PDF page; returns the PDF and its format."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow warns about damaged metadata it then skips
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                if image.format not in expected:
                    raise InputFileError(str(path), f"content is {image.format}, not {'/'.join(sorted(expected))}")
                document = pymupdf.open()
                for frame in frames(image, path, max_pages, options.max_pixels):
                    scale = 72.0 / options.dpi
                    page = document.new_page(width=frame.width * scale, height=frame.height * scale)
                    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, frame.width, frame.height, frame.tobytes(), False)
                    page.insert_image(page.rect, pixmap=pixmap)
                return document, image.format
    except InputFileError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise InputFileError(str(path), f"not a readable image: {exc}") from exc
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError, RuntimeError) as exc:  # Pillow's decoder errors
        raise InputFileError(str(path), f"corrupt image: {type(exc).__name__}: {exc}") from exc


def parse_image(
    path: Path, source_name: str, sha256: str, *, parser_version: str, max_pages: int, ocr: OcrOptions
) -> ParsedDocument:
    """OCR an image file (every frame of a TIFF is a page) into the shared document tree."""
    expected = SUFFIX_FORMATS.get(path.suffix.lower(), set(MEDIA_TYPES))
    document, fmt = image_pdf(path, expected, ocr, max_pages)
    parsed = parse_pdf_document(document, path, source_name, sha256, parser_version=parser_version,
                                max_pages=max_pages, ocr=ocr)
    parsed.media_type = MEDIA_TYPES[fmt]
    parsed.parser = "pillow+tesseract"
    return parsed
