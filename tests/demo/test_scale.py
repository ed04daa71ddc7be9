"""Larger scales add programmes with new documents and no verbatim-repeated paragraphs."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pymupdf
import pytest
from pptx import Presentation

from kb.demo.generate import generate

from .readback import docx_blocks, normalise


def paragraphs(path: Path) -> list[str]:
    """Running text of a file: DOCX paragraphs, PPTX text-frame paragraphs, PDF text blocks."""
    if path.suffix == ".docx":
        return [b.text for b in docx_blocks(path) if b.table is None]
    if path.suffix == ".pptx":
        return [p.text for slide in Presentation(str(path)).slides for shape in slide.shapes
                if shape.has_text_frame for p in shape.text_frame.paragraphs]
    with pymupdf.open(path) as pdf:
        return [normalise(b[4]) for page in pdf for b in page.get_text("blocks")]


@pytest.mark.slow
def test_scale_4_adds_programmes_without_repeating_text(tmp_path: Path) -> None:
    out = tmp_path / "x4"
    result = generate(out, seed=7, scale=4)
    gt = json.loads((out / "ground_truth.json").read_text())
    assert result.documents == len(gt["documents"]) >= 4 * 34
    assert len(gt["programmes"]) == 4 and len({p["drug"] for p in gt["programmes"]}) == 4
    owners: dict[str, set[str]] = defaultdict(set)
    for doc in gt["documents"]:
        seen: set[str] = set()
        for text in paragraphs(out / doc["file"]):
            if len(text) < 60 or "page" in text.split()[-2:]:
                continue
            assert text not in seen or doc["kind"] == "scan", f"{doc['file']} repeats {text!r}"
            seen.add(text)
            owners[text].add(doc["programme"])
    shared = [t for t, progs in owners.items() if len(progs) > 1]
    assert shared == [], f"{len(shared)} paragraphs shared between programmes, e.g. {shared[:3]}"
