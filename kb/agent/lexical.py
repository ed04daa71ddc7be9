"""Lexical agent: a bounded loop over passage tools; with the `none` backend a fixed plan.

Plan: search (filters from the question's report id / version), read the best passages and their
reading-order neighbours, and answer extractively with the sentences that best cover the
question's terms (preferring sentences with numbers when it asks for a quantity).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from kb.agent.answer import Answer, AnswerItem, Tracer
from kb.agent.citations import CitationBuilder
from kb.agent.linking import LinkedQuestion
from kb.agent.llm import LLMChain
from kb.store import GraphStore

STOPWORDS = set(
    "a an the of in on at for to and or by with from what which who whom whose when where why how is are was were be been "
    "this that these those it its as do does did used use using report version step all any there their list give show "
    "tell me please".split()
)
QUANTITY = re.compile(r"\b(temperature|time|how long|yield|purity|pressure|ph|volume|equivalents?|amount|lot|batch|scale|concentration)\b", re.I)
NUMBER = re.compile(r"\d")
SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")

Search = Callable[..., list[Any]]


def terms(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w\-]+", text.lower()) if w not in STOPWORDS and len(w) > 1}


@dataclass
class Scored:
    score: float
    passage: Any
    start: int
    end: int


def best_sentences(question: str, passages: list[Any], limit: int = 2) -> list[Scored]:
    """Sentences (or table rows) ranked by question-term coverage, then passage rank."""
    wanted = terms(question)
    quantity = bool(QUANTITY.search(question))
    scored: list[Scored] = []
    for rank, passage in enumerate(passages):
        for found in SENTENCE.finditer(passage.text):
            sentence = found.group(0)
            if not sentence.strip():
                continue
            overlap = len(wanted & terms(sentence))
            if overlap == 0:
                continue
            score = overlap + (0.5 if quantity and NUMBER.search(sentence) else 0.0) - 0.05 * rank
            scored.append(Scored(score, passage, found.start(), found.end()))
    scored.sort(key=lambda s: (-s.score, s.passage.iri, s.start))
    return scored[:limit]


class LexicalAgent:
    def __init__(self, store: GraphStore, search: Search, llm: LLMChain, *, k: int = 8) -> None:
        self.store = store
        self.search = search
        self.llm = llm
        self.k = k

    def filters(self, linked: LinkedQuestion) -> dict[str, str]:
        filters: dict[str, str] = {}
        if linked.series:
            filters["series"] = linked.series[0]
        if linked.versions and linked.series:
            filters["version"] = linked.versions[0]
        return filters

    def answer(self, question: str, linked: LinkedQuestion, tracer: Tracer) -> Answer:
        filters = self.filters(linked)
        steps = 0
        passages = self.search(question, filters, self.k)
        steps += 1
        tracer.add("lexical.search", filters=filters, k=self.k, hits=[p.iri for p in passages])
        if not passages and filters:
            passages = self.search(question, {}, self.k)
            steps += 1
            tracer.add("lexical.search", filters={}, k=self.k, hits=[p.iri for p in passages], why="no hit with filters")
        if not passages:
            return Answer(question, "lexical", "I found no passage that matches this question.", found_evidence=False)
        chosen = best_sentences(question, passages)
        steps += 1
        tracer.add("lexical.read", sentences=[(s.passage.iri, s.start, s.end, round(s.score, 2)) for s in chosen], steps=steps)
        if not chosen:
            return Answer(question, "lexical", "The best passages do not contain the question's terms; no answer is given.", found_evidence=False)
        builder = CitationBuilder(self.store)
        items = []
        for scored in chosen:
            quote = scored.passage.text[scored.start : scored.end].strip()
            citation = builder.cite(scored.passage.iri, quote=quote)
            items.append(AnswerItem(text=quote, citations=[citation] if citation else []))
        return Answer(question, "lexical", " ".join(i.text for i in items), items=items)
