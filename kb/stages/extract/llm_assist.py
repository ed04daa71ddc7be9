"""Optional LLM-assisted pass: a model may propose mentions the rules missed, never unchecked.

Off by default (nothing in the default pipeline calls it). A proposal must quote a span that exists
verbatim in the chunk after whitespace normalisation and name one of the known kinds; anything else
is dropped and counted. Accepted proposals become ordinary mentions with the rule 'llm.<backend>',
so they stay auditable and can be filtered out of the graph.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from kb.agent.llm import LLMBackend
from kb.stages.extract.mentions import KIND_CLASSES, Chunk, Mention, sort_mentions

ALLOWED_KINDS = ("substance", "planned_process", "unit_operation", "equipment", "impurity", "analytical_method")
PROMPT = (
    "List chemical substances, process steps, unit operations, equipment, impurities and analytical "
    "methods named in the text that are missing from KNOWN. Answer with JSON lines only, one per item: "
    '{"text": "<exact words from the text>", "kind": "<one of: ' + ", ".join(ALLOWED_KINDS) + '>"}'
)


@dataclass
class AssistResult:
    accepted: list[Mention] = field(default_factory=list)
    dropped: int = 0


def _normalised(text: str) -> tuple[str, list[int]]:
    """Whitespace runs collapsed to one space, with each output character's offset in the input."""
    out: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            if out and out[-1] == " ":
                continue
            ch = " "
        out.append(ch)
        offsets.append(i)
    return "".join(out), offsets


def locate(chunk_text: str, quote: str) -> tuple[int, int] | None:
    """Offsets of the first occurrence of `quote` (whitespace-normalised) in the chunk, or None."""
    haystack, offsets = _normalised(chunk_text)
    needle = _normalised(quote.strip())[0]
    if not needle:
        return None
    match = re.search(r"(?<!\w)" + re.escape(needle) + r"(?!\w)", haystack)
    if match is None:
        return None
    return offsets[match.start()], offsets[match.end() - 1] + 1


def assist(chunk: Chunk, known: list[Mention], backend: LLMBackend, *, max_tokens: int = 256) -> AssistResult:
    """Ask the backend for missed mentions; keep only verified, non-overlapping ones."""
    listed = sorted({m.text for m in known})
    messages = [
        {"role": "system", "content": PROMPT},
        {"role": "user", "content": f"KNOWN: {json.dumps(listed, ensure_ascii=False)}\nTEXT: {chunk.text}"},
    ]
    reply = backend.complete(messages, max_tokens=max_tokens)
    result = AssistResult()
    taken = [(m.start, m.end) for m in known if m.kind in ALLOWED_KINDS]
    for line in reply.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            item = json.loads(line)
            quote, kind = str(item["text"]), str(item["kind"])
        except (ValueError, KeyError, TypeError):
            result.dropped += 1
            continue
        span = locate(chunk.text, quote) if kind in ALLOWED_KINDS else None
        if span is None or any(span[0] < e and s < span[1] for s, e in taken):
            result.dropped += 1
            continue
        taken.append(span)
        result.accepted.append(
            Mention(chunk.iri, span[0], span[1], KIND_CLASSES[kind], chunk.text[span[0] : span[1]], kind, f"llm.{backend.name}")
        )
    result.accepted = sort_mentions(result.accepted)
    return result
