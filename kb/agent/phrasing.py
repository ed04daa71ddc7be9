"""Optional LLM wording of an answer, accepted only when its citations and numbers check out.

The model sees numbered quotes and must cite them as [n]. The wording is kept only if every [n]
points at a supplied quote, at least one is cited, every number in the wording appears in a
cited quote, it states a cited value or shares a word with the cited quotes, and it keeps a value
when the extractive answer states one ("The answer is: [1]" cites correctly and says nothing). Otherwise the
extractive answer stands and the trace says why.
"""

from __future__ import annotations

import re

from kb.agent.answer import Answer, Tracer
from kb.agent.llm import LLMChain

MARKER = re.compile(r"\[(\d+)\]")
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
WORD = re.compile(r"[^\W\d_]{4,}")
MAX_QUOTES = 8


def check_wording(text: str, quotes: list[str], extractive: str = "") -> str | None:
    """None when the wording is acceptable, else the reason it is not."""
    cited = {int(n) for n in MARKER.findall(text)}
    if not cited:
        return "no citation marker"
    if any(n < 1 or n > len(quotes) for n in cited):
        return "a citation points at no supplied passage"
    evidence = " ".join(quotes[n - 1] for n in cited)
    wording = MARKER.sub("", text)
    numbers = NUMBER.findall(wording)
    for number in numbers:
        if number not in evidence:
            return f"number {number} is not in the cited passages"
    if not numbers and not {w.lower() for w in WORD.findall(wording)} & {w.lower() for w in WORD.findall(evidence)}:
        return "the wording states no value and shares no word with the cited passages"
    if NUMBER.search(extractive) and not numbers:
        return "the wording drops every value of the extractive answer"
    return None


def phrase_answer(answer: Answer, llm: LLMChain, tracer: Tracer) -> None:
    quotes = [c.quote for c in answer.citations()][:MAX_QUOTES]
    if not quotes:
        return
    evidence = "\n".join(f"[{i}] {q}" for i, q in enumerate(quotes, start=1))
    prompt = (
        "Answer the question in one or two sentences using only these passages, and cite them as [n].\n"
        f"Passages:\n{evidence}\nQuestion: {answer.question}\nAnswer:"
    )
    reply = llm.complete([{"role": "user", "content": prompt}])
    problem = "no reply" if reply.text is None else check_wording(reply.text, quotes, answer.text)
    tracer.add("phrase", backend=reply.backend, accepted=problem is None, problem=problem, calls=[c.__dict__ for c in reply.calls])
    if problem is None and reply.text:
        answer.text = reply.text
