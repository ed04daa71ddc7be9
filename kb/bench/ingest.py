"""Ingestion benchmarks: pages per second end to end into the store, and peak memory.

Each format is measured alone (digital PDF, DOCX, PPTX, scanned PDF pages through OCR) with 1
and 2 parse workers at corpus scale 1 and 4, on files built by kb.testing / kb.testing_formats.
"End to end" means parse, language identification, lexical graph and the write into an
on-disk Oxigraph store. Peak memory is the largest resident set of the process tree (this
process plus its parse workers), sampled every 50 ms.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import psutil

from kb.bench import Measurement, benchmark
from kb.config import load_config
from kb.ingest import ingest
from kb.store.oxigraph_local import OxigraphLocalStore

SCALES = (1, 4)
WORKERS = (1, 2)
DIGITAL_GOAL = ">= 30 pages/s"
OCR_GOAL = ">= 1 page/s at 300 DPI"


@dataclass(frozen=True)
class Corpus:
    """Files per scale unit and the writer that makes one of them."""

    label: str
    suffix: str
    files_per_scale: int
    write: Callable[[Path], object]
    goal: str


def corpora() -> list[Corpus]:
    from kb import testing_formats as F
    from kb.testing import write_docx, write_pdf

    return [
        Corpus("digital PDF", ".pdf", 6, lambda p: write_pdf(p, extra_pages=7), DIGITAL_GOAL),
        Corpus("DOCX", ".docx", 20, write_docx, DIGITAL_GOAL),
        Corpus("PPTX", ".pptx", 10, F.write_pptx, DIGITAL_GOAL),
        Corpus("OCR pages", ".pdf", 1, lambda p: F.write_scanned_pdf(p, pages=4), OCR_GOAL),
    ]


class PeakMemory:
    """Samples the resident memory of this process and its children until stopped."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> int:
        me = psutil.Process()
        total = me.memory_info().rss
        for child in me.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.Error:
                continue
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._sample())
            self._stop.wait(0.05)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def build(corpus: Corpus, folder: Path, scale: int) -> Path:
    """Write the corpus once (one file, copied under distinct names so every file is parsed)."""
    folder.mkdir(parents=True, exist_ok=True)
    template = folder / f"template{corpus.suffix}"
    corpus.write(template)
    data = template.read_bytes()
    template.unlink()
    for i in range(corpus.files_per_scale * scale):
        (folder / f"doc{i:04d}{corpus.suffix}").write_bytes(data)
    return folder


def measure(corpus: Corpus, folder: Path, workers: int, scale: int, work: Path) -> list[Measurement]:
    config = load_config(toml_path=work / "absent.toml", env={})
    store = OxigraphLocalStore(work / f"store-{workers}")
    try:
        with PeakMemory() as memory:
            started = time.perf_counter()
            summary = ingest(store, [folder], config, workers=workers, force=True)
            elapsed = time.perf_counter() - started
    finally:
        store.close()
    if summary.failures:
        raise RuntimeError(f"benchmark corpus failed to ingest: {summary.failures[0]}")
    params = {"format": corpus.label, "workers": workers, "scale": scale, "files": summary.documents,
              "pages": summary.pages, "seconds": round(elapsed, 2)}
    return [
        Measurement("ingest", f"{corpus.label} pages/s", summary.pages / elapsed, "pages/s", params, corpus.goal),
        Measurement("ingest", f"{corpus.label} peak memory", memory.peak / 2**20, "MiB", params),
    ]


@benchmark("ingest")
def ingest_throughput(out: Path) -> list[Measurement]:
    """Pages/s and peak memory per format, for 1 and 2 workers at scale 1 and 4."""
    results: list[Measurement] = []
    with tempfile.TemporaryDirectory(prefix="kb-bench-ingest-") as tmp:
        work = Path(tmp)
        for corpus in corpora():
            for scale in SCALES:
                folder = build(corpus, work / f"{corpus.label}-{scale}".replace(" ", "_"), scale)
                for workers in WORKERS:
                    run = work / f"run-{corpus.label}-{scale}-{workers}".replace(" ", "_")
                    run.mkdir()
                    results.extend(measure(corpus, folder, workers, scale, run))
    return results
