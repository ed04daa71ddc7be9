"""Issue 4: OCR of images and scanned PDF pages with real Tesseract; engine and confidence in the graph."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from kb import testing_formats as F
from kb import vocab as V
from kb.errors import InputFileError
from kb.stages.lexical.graph import build_lexical_graph
from kb.testing_formats import all_blocks, all_sections

pytestmark = pytest.mark.ocr


def word_recall(expected: list[str], text: str) -> float:
    """Share of ground-truth words found in the OCR text (multiset, case-sensitive)."""
    found = re.findall(r"[^\s.,;:()]+", text)
    pool: dict[str, int] = {}
    for word in found:
        pool[word] = pool.get(word, 0) + 1
    hits = 0
    for word in expected:
        if pool.get(word, 0):
            pool[word] -= 1
            hits += 1
    return hits / len(expected)


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scans")
    F.write_image(folder / "scan.png")
    F.write_image(folder / "scan.tif", pages=2)
    F.write_mixed_pdf(folder / "mixed.pdf")
    return folder


def test_png_scan_word_recall_and_structure(scans: Path, parse) -> None:
    doc = parse(scans / "scan.png")
    text = "\n".join([s.title for s in all_sections(doc.root)] + [b.text for b in all_blocks(doc.root)])
    assert word_recall(F.scan_words(), text) >= 0.95
    assert doc.media_type == "image/png" and doc.root.sections()[0].title == F.SCAN_TEXT[0]
    assert all(b.meta["textSource"] == "ocr" and float(b.meta["ocrConfidence"]) > 80 for b in all_blocks(doc.root))


def test_multipage_tiff_gives_one_page_per_frame(scans: Path, parse) -> None:
    doc = parse(scans / "scan.tif")
    assert doc.page_count == 2 and {b.page for b in all_blocks(doc.root)} == {1, 2}
    assert doc.meta["ocrPages"] == "1 2"


def test_mixed_pdf_keeps_text_layer_and_ocrs_the_scan(scans: Path, parse) -> None:
    doc = parse(scans / "mixed.pdf")
    digital = [b for b in all_blocks(doc.root) if b.page < 4]
    scanned = [b for b in all_blocks(doc.root) if b.page == 4]
    assert digital and not any("textSource" in b.meta for b in digital)
    assert any(b.kind == "table" for b in digital)
    assert scanned and all(b.meta["textSource"] == "ocr" for b in scanned)
    assert word_recall(F.scan_words(F.SCAN_TEXT[1:]), " ".join(b.text for b in scanned)) >= 0.95
    assert doc.meta["ocrPages"] == "4"
    graph = build_lexical_graph(doc, base_iri="https://example.org/", row_window=40)
    engine = [o.value for s, p, o in graph.triples if p == V.OCR_ENGINE]
    assert len(engine) == 1 and re.match(r"tesseract \d+\.\d+.* \(eng\+deu\+fra\)$", engine[0])
    confidences = [float(o.value) for s, p, o in graph.triples if p == V.OCR_CONFIDENCE]
    assert len(confidences) == len(scanned) and min(confidences) > 80


def test_ocr_time_limit_fails_the_whole_file(scans: Path, parse, limits) -> None:
    with pytest.raises(InputFileError, match="OCR time limit"):
        parse(scans / "scan.tif", replace(limits, ocr_timeout_s=0.05))


def test_oversized_and_corrupt_images_are_refused(tmp_path: Path, parse, limits) -> None:
    png = F.write_image(tmp_path / "big.png")
    with pytest.raises(InputFileError, match="over the limit"):
        parse(png, replace(limits, max_image_pixels=1000))
    broken = tmp_path / "broken.png"
    broken.write_bytes(png.read_bytes()[:2000])
    with pytest.raises(InputFileError, match="broken.png: (corrupt|not a readable) image"):
        parse(broken)
    renamed = tmp_path / "photo.jpg"
    renamed.write_bytes(png.read_bytes())
    with pytest.raises(InputFileError, match="content is PNG, not JPEG"):
        parse(renamed)
