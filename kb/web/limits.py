"""Safety limits for a shared endpoint: query time, result size, body size, no server-side fetches.

pyoxigraph 0.5 has no way to cancel a running query from Python. Queries therefore run on a
bounded thread pool: the request waits at most ``query_timeout_s`` and then answers 503. The
result is serialised through a writer that refuses further bytes once the deadline has passed or
the size limit is hit, which stops a streaming query at its next output chunk; a query stuck in a
blocking operator (ORDER BY, GROUP BY over huge input) keeps one pool thread busy until it ends.
The pool size bounds how many such queries can run at once.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import TypeVar

from kb.config import Config
from kb.store.sparql_text import keywords
from kb.web.errors import WebError

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    query_timeout_s: float
    max_result_bytes: int
    max_body_bytes: int
    allow_service: bool
    allow_load: bool

    @classmethod
    def from_config(cls, config: Config) -> Limits:
        return cls(
            query_timeout_s=float(config["server.query_timeout_s"]),
            max_result_bytes=int(config["server.max_result_bytes"]),
            max_body_bytes=int(config["server.max_body_bytes"]),
            allow_service=bool(config["server.allow_service"]),
            allow_load=bool(config["server.allow_load"]),
        )


def refuse_remote_access(text: str, limits: Limits) -> None:
    """SERVICE and LOAD make the server fetch arbitrary URLs: off unless enabled."""
    words = keywords(text)
    if "SERVICE" in words and not limits.allow_service:
        raise WebError("SERVICE federation is disabled on this endpoint", status=403, code="KB703",
                       hint="set server.allow_service=true to allow it")
    if "LOAD" in words and not limits.allow_load:
        raise WebError("LOAD of remote URLs is disabled on this endpoint", status=403, code="KB703",
                       hint="set server.allow_load=true to allow it")


class ResultTooLarge(Exception):
    pass


class Deadline(Exception):
    pass


class BoundedBuffer(io.RawIOBase):
    """A bytes sink that stops the serializer at the size limit or once cancelled."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__()
        self.parts: list[bytes] = []
        self.size = 0
        self.max_bytes = max_bytes
        self.cancelled = threading.Event()

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if self.cancelled.is_set():
            raise Deadline()
        self.size += len(data)
        if self.size > self.max_bytes:
            raise ResultTooLarge()
        self.parts.append(bytes(data))
        return len(data)

    def getvalue(self) -> bytes:
        return b"".join(self.parts)


class QueryRunner:
    """Runs query work on a bounded pool and gives up waiting at the time limit."""

    def __init__(self, limits: Limits, threads: int) -> None:
        self.limits = limits
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kb-query")

    def run(self, work: Callable[[BoundedBuffer], T]) -> tuple[T, bytes]:
        """``work`` writes its result into the buffer; returns its value and the bytes."""
        sink = BoundedBuffer(self.limits.max_result_bytes)
        started = time.monotonic()
        future = self.pool.submit(work, sink)
        try:
            value = future.result(timeout=self.limits.query_timeout_s)
        except FutureTimeout:
            sink.cancelled.set()
            raise WebError(
                f"query exceeded the time limit of {self.limits.query_timeout_s:g} s",
                status=503, code="KB702", hint="narrow the query or raise server.query_timeout_s",
            ) from None
        except ResultTooLarge:
            raise self.too_large() from None
        except OSError as exc:  # pyoxigraph wraps exceptions raised by the sink
            if isinstance(exc.__cause__, ResultTooLarge) or sink.size > sink.max_bytes:
                raise self.too_large() from None
            if sink.cancelled.is_set() or time.monotonic() - started > self.limits.query_timeout_s:
                raise WebError("query exceeded the time limit", status=503, code="KB702") from None
            raise
        return value, sink.getvalue()

    def too_large(self) -> WebError:
        return WebError(
            f"query result exceeds the size limit of {self.limits.max_result_bytes} bytes",
            status=503, code="KB704", hint="add LIMIT, or raise server.max_result_bytes",
        )

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
