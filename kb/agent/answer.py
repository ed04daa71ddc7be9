"""What an answer is: short text, supporting items each tied to citations, and the trace."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Citation:
    """A verbatim quote and where it stands: document, version, section path, page, chunk IRI."""

    chunk: str
    document: str
    title: str
    version: str
    section_path: str
    page: int
    quote: str


@dataclass
class AnswerItem:
    text: str
    citations: list[Citation] = field(default_factory=list)
    entity: str = ""


@dataclass
class TraceStep:
    step: str
    detail: dict[str, Any]
    ms: float


@dataclass
class Answer:
    question: str
    route: str
    text: str
    items: list[AnswerItem] = field(default_factory=list)
    found_evidence: bool = True
    trace: list[TraceStep] = field(default_factory=list)

    def citations(self) -> list[Citation]:
        seen: dict[tuple[str, str], Citation] = {}
        for item in self.items:
            for citation in item.citations:
                seen.setdefault((citation.chunk, citation.quote), citation)
        return list(seen.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "route": self.route,
            "answer": self.text,
            "found_evidence": self.found_evidence,
            "items": [asdict(i) for i in self.items],
            "citations": [asdict(c) for c in self.citations()],
            "trace": [asdict(t) for t in self.trace],
        }


class Tracer:
    """Collects trace steps with their timings; ``on_step`` sees each step as it happens."""

    def __init__(self, on_step: Callable[[TraceStep], None] | None = None) -> None:
        self.steps: list[TraceStep] = []
        self.on_step = on_step
        self._last = time.perf_counter()

    def add(self, step: str, **detail: Any) -> None:
        now = time.perf_counter()
        traced = TraceStep(step, detail, round((now - self._last) * 1000, 1))
        self.steps.append(traced)
        self._last = now
        if self.on_step is not None:
            self.on_step(traced)
