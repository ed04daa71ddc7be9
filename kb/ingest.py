"""Ingest source files into the lexical layer: one named graph per document, all or nothing.

Files are parsed in a process pool (``workers``) and written in sorted order, so the graph never
depends on scheduling. A file that fails leaves the store as it was and the run goes on.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from pyoxigraph import Literal, NamedNode

from kb import vocab as V
from kb.config import Config
from kb.doctree import ParsedDocument
from kb.errors import InputFileError
from kb.iris import doc_id, document_iri
from kb.stages.lexical.graph import build_lexical_graph
from kb.stages.parse import parse_file, supported_suffixes
from kb.stages.parse.guard import Limits
from kb.store import GraphStore

Progress = Callable[[Iterable[object], int], Iterator[object]]


@dataclass(frozen=True)
class SourceFile:
    path: Path
    name: str


@dataclass
class IngestSummary:
    documents: int = 0
    unchanged: int = 0
    sections: int = 0
    chunks: int = 0
    tables: int = 0
    pages: int = 0
    failures: list[str] = field(default_factory=list)
    ingested: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"documents ingested: {self.documents}",
            f"documents unchanged: {self.unchanged}",
            f"sections: {self.sections}",
            f"chunks: {self.chunks}",
            f"tables: {self.tables}",
            f"pages: {self.pages}",
            f"failures: {len(self.failures)}",
        ]


def collect_sources(paths: Iterable[Path]) -> list[SourceFile]:
    """Files to ingest, sorted.

    A folder contributes the files of supported types under it, named by their path relative to
    it; a file named explicitly is always attempted, so a wrong type is reported, not skipped.
    """
    found: dict[str, SourceFile] = {}
    for path in paths:
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")):
                if child.suffix.lower() in supported_suffixes():
                    name = child.relative_to(path).as_posix()
                    found[name] = SourceFile(child, name)
        else:
            found[path.name] = SourceFile(path, path.name)
    return [found[k] for k in sorted(found)]


def limits_from(config: Config) -> Limits:
    return Limits(
        max_file_bytes=config["ingest.max_file_bytes"],
        max_unzipped_bytes=config["ingest.max_unzipped_bytes"],
        max_zip_entries=config["ingest.max_zip_entries"],
        max_pages=config["ingest.max_pages"],
        ocr_languages=config["ocr.languages"],
        ocr_dpi=config["ocr.dpi"],
        ocr_timeout_s=config["ocr.timeout_s"],
        ocr_threads=config["ocr.threads"],
        max_image_pixels=config["ingest.max_image_pixels"],
        detect_languages=config["lang.languages"],
    )


@dataclass(frozen=True)
class ParseJob:
    source: SourceFile
    limits: Limits


def run_job(job: ParseJob) -> ParsedDocument | InputFileError:
    """Parse one file (in a worker process); errors come back as values."""
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    try:
        return parse_file(job.source.path, job.source.name, job.limits)
    except InputFileError as exc:
        return exc


def stored_hash(store: GraphStore, base_iri: str, name: str) -> str | None:
    """The byte hash of the stored version of a source file, if any."""
    ident = doc_id(name)
    result = store.query(
        "SELECT * WHERE { GRAPH ?g { ?doc ?p ?h } }",
        bindings={"g": NamedNode(V.lexical_graph(ident)), "doc": NamedNode(document_iri(base_iri, ident)), "p": V.BYTE_HASH},
    )
    for row in result:
        value = row["h"]
        return value.value if isinstance(value, Literal) else None
    return None


def file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def changed_sources(store: GraphStore, sources: list[SourceFile], base_iri: str, summary: IngestSummary) -> list[SourceFile]:
    """Sources whose bytes differ from the stored version (unchanged ones are counted and skipped)."""
    todo = []
    for source in sources:
        if source.path.is_file() and stored_hash(store, base_iri, source.name) == file_sha256(source.path):
            summary.unchanged += 1
        else:
            todo.append(source)
    return todo


def parse_sources(
    sources: list[SourceFile], limits: Limits, *, workers: int = 1, progress: Progress | None = None
) -> Iterator[ParsedDocument | InputFileError]:
    """Parse in a process pool, yielding results in the sources' (sorted) order."""
    if limits.ocr_threads < 1:  # auto: share the cores between workers' Tesseract processes
        limits = replace(limits, ocr_threads=max(1, (os.cpu_count() or 1) // max(1, min(workers, len(sources)))))
    jobs = [ParseJob(s, limits) for s in sources]
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = pool.map(run_job, jobs, chunksize=1)
            yield from (progress(results, len(jobs)) if progress else results)
    else:
        results = map(run_job, jobs)
        yield from (progress(results, len(jobs)) if progress else results)


def write_lexical(
    store: GraphStore, parsed: Iterable[ParsedDocument | InputFileError], config: Config, summary: IngestSummary
) -> None:
    """Build each document's lexical graph and replace its named graph in one transaction."""
    for outcome in parsed:
        if isinstance(outcome, InputFileError):
            summary.failures.append(outcome.message)
            continue
        graph = build_lexical_graph(outcome, base_iri=config["base_iri"], row_window=config["ingest.table_row_window"])
        name = V.lexical_graph(graph.doc_id)
        store.replace_graph(name, graph.quads(name))
        summary.documents += 1
        summary.sections += graph.sections
        summary.chunks += graph.chunks
        summary.tables += graph.tables
        summary.pages += graph.pages
        summary.ingested.append(outcome.source_name)


def ingest(
    store: GraphStore,
    paths: Iterable[Path],
    config: Config,
    *,
    workers: int | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> IngestSummary:
    """Ingest files or folders; unchanged files are skipped, changed ones replace their graph."""
    summary = IngestSummary()
    sources = collect_sources(paths)
    todo = sources if force else changed_sources(store, sources, config["base_iri"], summary)
    parsed = parse_sources(todo, limits_from(config), workers=workers or config["ingest.workers"], progress=progress)
    write_lexical(store, parsed, config, summary)
    return summary
