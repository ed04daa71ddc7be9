"""Issue 4: hostile and broken files of every format end in a clear error or a clean ingest.

The fuzz corpus is generated deterministically (fixed seed): truncations, bit flips, random
bytes behind a valid magic number, and pure noise, for each supported format. The store must
afterwards hold exactly the documents that succeeded, and nothing of those that failed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image

from kb import testing_formats as F
from kb import vocab as V
from kb.ingest import ingest
from kb.stats import all_quads
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.testing import write_docx, write_pdf

TRUNCATE_AT = (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.995)


def base_files(folder: Path) -> dict[str, bytes]:
    write_docx(folder / "base.docx")
    write_pdf(folder / "base.pdf")
    F.write_pptx(folder / "base.pptx")
    F.write_xlsx(folder / "base.xlsx")
    F.write_html(folder / "base.html")
    F.write_markdown(folder / "base.md")
    F.write_text(folder / "base.txt")
    small = Image.new("L", (160, 48), 255)  # blank and small: OCR of a surviving variant stays fast
    for suffix, fmt in ((".png", "PNG"), (".jpg", "JPEG"), (".tif", "TIFF")):
        small.save(folder / f"base{suffix}", fmt)
    return {p.suffix: p.read_bytes() for p in sorted(folder.iterdir())}


def variants(data: bytes, rng: random.Random, flips: int) -> list[bytes]:
    out = [data[: max(1, int(len(data) * f))] for f in TRUNCATE_AT]
    for _ in range(flips):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            position = rng.randrange(len(mutated))
            mutated[position] ^= 1 << rng.randrange(8)
        out.append(bytes(mutated))
    out.append(data[:8] + rng.randbytes(max(64, len(data) // 4)))
    out.append(rng.randbytes(512))
    return out


@pytest.mark.ocr
def test_fuzzed_files_fail_cleanly_or_ingest_completely(tmp_path: Path, config) -> None:
    (tmp_path / "base").mkdir()
    bases = base_files(tmp_path / "base")
    corpus = tmp_path / "fuzz"
    corpus.mkdir()
    rng = random.Random(20261130)
    for suffix, data in sorted(bases.items()):
        flips = 4 if suffix in {".png", ".jpg", ".tif"} else 14
        for i, variant in enumerate(variants(data, rng, flips)):
            (corpus / f"case{i:02d}{suffix}").write_bytes(variant)
    names = sorted(p.name for p in corpus.iterdir())
    assert len(names) >= 200

    store = OxigraphLocalStore(None)
    summary = ingest(store, [corpus], config.with_values(ocr__timeout_s=20.0))

    failed = {message.split(": ", 1)[0].rsplit("/", 1)[-1] for message in summary.failures}
    assert all(": " in message and message.split(": ", 1)[1] for message in summary.failures)
    assert failed.isdisjoint(summary.ingested) and failed | set(summary.ingested) == set(names)
    assert summary.failures and summary.ingested  # the corpus really exercises both outcomes
    print(f"fuzz: {len(names)} cases, {len(summary.ingested)} ingested, {len(summary.failures)} refused")
    stored = {q.object.value for q in all_quads(store) if q.predicate == V.FILE_NAME}
    assert stored == set(summary.ingested)
    lexical = {g for g in store.graphs() if g.startswith(V.GRAPH_LEXICAL_PREFIX)}
    assert len(lexical) == len(summary.ingested)


def test_encrypted_office_files_are_refused_with_a_clear_reason(tmp_path: Path, parse) -> None:
    from kb.errors import InputFileError
    from kb.stages.parse.guard import OLE_MAGIC

    for suffix in (".docx", ".pptx", ".xlsx"):
        path = tmp_path / f"locked{suffix}"
        path.write_bytes(OLE_MAGIC + bytes(4096))
        with pytest.raises(InputFileError, match=rf"locked\{suffix}: encrypted \(password-protected\)"):
            parse(path)
