"""Generate the demo programme: documents plus ground_truth.json, deterministic per (seed, scale)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from kb.demo import ground_truth
from kb.demo.chemistry import Programme, build_programme
from kb.demo.decks import deck_documents
from kb.demo.docx_writer import write_docx
from kb.demo.model import Document
from kb.demo.pdf_writer import write_pdf
from kb.demo.pptx_writer import write_pptx
from kb.demo.reports import report_documents
from kb.demo.scan import write_scan
from kb.demo.standalone import standalone_documents
from kb.errors import ConfigError

GROUND_TRUTH = "ground_truth.json"


@dataclass(frozen=True)
class GenerationResult:
    out: Path
    documents: int
    pages: int
    seconds: float
    cached: bool
    cpu_seconds: float = 0.0  # process CPU time: comparable across runs on a shared machine


def programme_documents(prog: Programme, seed: int) -> tuple[list[Document], dict[str, list]]:
    """All documents of one programme (before writing) and the extra ground-truth sections."""
    docs = report_documents(prog, seed)
    docs += deck_documents(prog, seed)
    standalone, extras = standalone_documents(prog, seed)
    return docs + standalone, extras


def write_document(doc: Document, folder: Path) -> None:
    path = folder / doc.file
    if doc.kind == "scan":
        write_scan(doc, path)
    elif doc.format == "docx":
        write_docx(doc, path)
    elif doc.format == "pptx":
        write_pptx(doc, path)
    else:
        write_pdf(doc, path, landscape=doc.kind == "slide_deck_pdf")


def generate(out: Path, *, seed: int = 7, scale: int = 1, force: bool = False) -> GenerationResult:
    """Write the programme(s) into `out`; skip when out/ground_truth.json has the same seed and scale.

    Scale K builds K programmes, each with its own route codes, documents and dates.
    """
    if scale < 1:
        raise ConfigError(f"--scale must be at least 1, got {scale}")
    gt_path = out / GROUND_TRUTH
    if gt_path.is_file() and not force:
        try:
            existing = json.loads(gt_path.read_text())
            gen = existing["generator"]
        except (ValueError, KeyError):
            existing, gen = None, {}
        if existing and gen.get("seed") == seed and gen.get("scale") == scale:
            return GenerationResult(out, len(existing["documents"]),
                                    sum(d["pages"] for d in existing["documents"]), 0.0, True)
        for old in (existing or {}).get("documents", []):  # a different programme: drop its files
            (out / Path(old["file"]).name).unlink(missing_ok=True)
    start, cpu_start = time.perf_counter(), time.process_time()
    out.mkdir(parents=True, exist_ok=True)
    programmes = [build_programme(seed, i) for i in range(scale)]
    docs: list[Document] = []
    extras: dict[str, list] = {"scans": [], "german": [], "reading_order": []}
    for prog in programmes:
        prog_docs, prog_extras = programme_documents(prog, seed)
        docs += prog_docs
        for key, values in prog_extras.items():
            extras[key] += values
    names = [d.file for d in docs]
    if len(set(names)) != len(names):
        raise ConfigError("demo generator produced duplicate file names")
    for doc in docs:
        write_document(doc, out)
    gt = ground_truth.build(docs, programmes, seed=seed, scale=scale, extras=extras)
    gt_path.write_text(json.dumps(gt, indent=1, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")
    seconds = time.perf_counter() - start
    return GenerationResult(out, len(docs), sum(d["pages"] for d in gt["documents"]), seconds, False,
                            time.process_time() - cpu_start)
