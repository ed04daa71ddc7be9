"""Background write jobs (ingest an upload, run a consistency check) with status and progress.

Jobs run one at a time on a single worker thread, so two writes never interleave. Each document
lands in one transaction (``replace_graph`` inside ``kb.ingest``), so a concurrent reader sees a
document either absent or complete. After an ingest the passage index is updated (the index swaps
its folder in atomically) and the agent is rebuilt, so the new document is searchable and
answerable without a restart.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import KBError
from kb.web.errors import WebError
from kb.web.services import Services

log = logging.getLogger(__name__)


@dataclass
class Job:
    """What a client polls: state, progress counters and, when finished, the result or error."""

    id: str
    kind: str
    state: str = "queued"
    stage: str = ""
    done: int = 0
    total: int = 0
    result: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    created: float = field(default_factory=time.time)
    finished: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "state": self.state,
                "progress": {"stage": self.stage, "done": self.done, "total": self.total},
                "result": self.result, "error": self.error, "created": self.created, "finished": self.finished}


class Jobs:
    """Registry and single-thread runner; ids are sequential (``job-1``, ``job-2``, ...)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-job")

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise WebError(f"unknown job {job_id!r}", status=404, code="KB715")
        return job

    def submit(self, kind: str, work: Callable[[Job], dict[str, Any]]) -> Job:
        with self._lock:
            job = Job(id=f"job-{len(self._jobs) + 1}", kind=kind)
            self._jobs[job.id] = job
        self._pool.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Callable[[Job], dict[str, Any]]) -> None:
        """Run one job; the agent is rebuilt before the job reports done, so 'done' means answerable."""
        job.state = "running"
        try:
            result, state, error = work(job), "done", ""
        except KBError as exc:
            result, state, error = {}, "failed", exc.message
        except Exception as exc:  # a job reports its failure instead of dying silently
            log.exception("job %s failed", job.id)
            result, state, error = {}, "failed", f"{type(exc).__name__}: {exc}"
        self.services.invalidate()
        job.result, job.error, job.finished = result, error, time.time()
        job.state = state

    def ingest(self, files: list[tuple[str, bytes]]) -> Job:
        """Write the uploads to a private folder and ingest them there; the folder is removed after."""
        folder = Path(tempfile.mkdtemp(prefix="kb-upload-"))
        for name, data in files:
            (folder / name).write_bytes(data)
        return self.submit("ingest", lambda job: self._ingest(job, folder))

    def _ingest(self, job: Job, folder: Path) -> dict[str, Any]:
        from kb.ingest import ingest
        from kb.retrieval.index import update_index

        services = self.services

        def progress(results: Iterable[object], total: int) -> Iterator[object]:
            job.stage, job.total = "parse", total
            for result in results:
                job.done += 1
                yield result

        try:
            summary = ingest(services.store, [folder], services.config, progress=progress)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        job.stage = "index"
        stats = update_index(services.store, services.config)
        return {"documents": summary.documents, "unchanged": summary.unchanged, "chunks": summary.chunks,
                "failures": summary.failures, "ingested": summary.ingested, "indexed_chunks": stats.chunks}

    def check(self, engine: str) -> Job:
        return self.submit("check", lambda job: self._check(job, engine))

    def _check(self, job: Job, engine: str) -> dict[str, Any]:
        from kb.report import run_check

        job.stage, job.total = "check", 1
        result = run_check(self.services.store, engine=engine, out_dir=self.services.report_dir)
        job.done = 1
        return {"verdict": result.report["verdict"], "summary": result.report["summary"]}

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
