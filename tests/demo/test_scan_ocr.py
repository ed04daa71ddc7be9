"""The scanned page stays legible: Tesseract recovers at least 95% of its words."""

from __future__ import annotations

import io
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PIL import Image

WORD = re.compile(r"[A-Za-z0-9]+(?:[.,][0-9]+)?")


@pytest.mark.ocr
def test_tesseract_recovers_the_scanned_words(demo_dir: Path, ground_truth: dict[str, Any]) -> None:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract binary not installed")
    import pytesseract

    (scan,) = ground_truth["scans"]
    with pymupdf.open(demo_dir / scan["document"]) as pdf:
        (xref, *_), = pdf[scan["page"] - 1].get_images()
        image = Image.open(io.BytesIO(pdf.extract_image(xref)["image"]))
    found = Counter(WORD.findall(pytesseract.image_to_string(image, lang="eng")))
    gold = Counter(WORD.findall(scan["text"]))
    recall = sum(min(n, found[w]) for w, n in gold.items()) / sum(gold.values())
    assert recall >= 0.95, recall
