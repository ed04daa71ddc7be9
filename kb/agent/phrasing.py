"""Optional LLM wording of an answer, accepted only when its citations and numbers check out.

The model sees numbered quotes and must cite them as [n]. The wording is kept only if every [n]
points at a supplied quote, at least one is cited, and every number in the wording appears in a
cited quote. Otherwise the extractive answer stands and the trace says why.
"""

from __future__ import annotations

import re

from kb.agent.answer import Answer, Tracer
from kb.agent.llm import LLMChain

MARKER = re.compile(r"\[(\d+)\]")
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
MAX_QUOTES = 8


def check_wording(text: str, quotes: list[str]) -> str | None:
    """None when the wording is acceptable, else the reason it is not."""
    cited = {int(n) for n in MARKER.findall(text)}
    if not cited:
        return "no citation marker"
    if any(n < 1 or n > len(quotes) for n in cited):
        return "a citation points at no supplied passage"
    evidence = " ".join(quotes[n - 1] for n in cited)
    for number in NUMBER.findall(MARKER.sub("", text)):
        if number not in evidence:
            return f"number {number} is not in the cited passages"
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
    problem = "no reply" if reply.text is None else check_wording(reply.text, quotes)
    tracer.add("phrase", backend=reply.backend, accepted=problem is None, problem=problem, calls=[c.__dict__ for c in reply.calls])
    if problem is None and reply.text:
        answer.text = reply.text
