"""Lexical agent: a bounded loop over passage tools; with the `none` backend a fixed plan.

Plan: search (filters from the question's report id / version), read the best passages, and
answer extractively with the two sentences that best cover the question's terms (preferring
sentences that state the asked quantity); a sentence found in several documents (a report and
its PDF export, or unchanged text across versions) is one item citing each of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kb.agent.answer import Answer, AnswerItem, Tracer
from kb.agent.citations import CitationBuilder
from kb.agent.linking import LinkedQuestion
from kb.agent.llm import LLMChain
from kb.stages.extract.spans import sentence_spans
from kb.store import GraphStore

STOPWORDS = set(
    ["a", "an", "the", "of", "in", "on", "at", "for", "to", "and", "or", "by", "with", "from", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was", "were", "be", "been", "this", "that", "these", "those", "it", "its", "as", "do", "does", "did", "used", "use", "using", "report", "version", "step", "all", "any", "there", "their", "list", "give", "show", "tell", "me", "please"]
)
QUANTITY = re.compile(r"\b(temperature|time|how long|yield|purity|pressure|ph|volume|equivalents?|amount|lot|batch|scale|concentration)\b", re.IGNORECASE)
NUMBER = re.compile(r"\d")
UNIT_OF_QUANTITY = {
    "temperature": re.compile(r"-?\d+(?:\.\d+)?\s*°\s*[CF]|\d+\s*K\b"),
    "time": re.compile(r"\d+(?:\.\d+)?\s*(?:h|hours?|min|minutes?|days?)\b"),
    "how long": re.compile(r"\d+(?:\.\d+)?\s*(?:h|hours?|min|minutes?|days?)\b"),
    "pressure": re.compile(r"\d+(?:\.\d+)?\s*(?:bar|barg|psi|kPa|MPa|atm|mbar)\b"),
    "yield": re.compile(r"\d+(?:\.\d+)?\s*%"),
    "purity": re.compile(r"\d+(?:\.\d+)?\s*(?:%|area)"),
    "ph": re.compile(r"\bpH\s*\d"),
    "equivalents": re.compile(r"\d+(?:\.\d+)?\s*(?:equiv|eq)\b"),
    "equivalent": re.compile(r"\d+(?:\.\d+)?\s*(?:equiv|eq)\b"),
    "volume": re.compile(r"\d+(?:\.\d+)?\s*(?:vol|L|mL)\b"),
    "lot": re.compile(r"\b[A-Z0-9]{2,}-\d{2}-\d{3}\b|\blot\b", re.IGNORECASE),
    "batch": re.compile(r"\b[A-Z0-9]{2,}-\d{2}-\d{3}\b|\bbatch\b", re.IGNORECASE),
}
ANSWER_SENTENCES = 2
SECOND_SENTENCE_SHARE = 0.75

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
    """Sentences (or table rows) ranked by question-term coverage, then passage rank.

    A sentence stating the asked quantity with its unit ("what temperature" -> "65 °C") earns a
    bonus, and terms of the passage's section path count a little toward all its sentences, so
    "the SNAr temperature" finds "held at 65 °C" under "Step 3: SNAr cyclisation > Procedure".
    """
    wanted = terms(question)
    asked = [UNIT_OF_QUANTITY[q.lower()] for q in QUANTITY.findall(question) if q.lower() in UNIT_OF_QUANTITY]
    quantity = bool(QUANTITY.search(question))
    scored: list[Scored] = []
    for rank, passage in enumerate(passages):
        context = 0.3 * len(wanted & terms(getattr(passage, "section_path", "")))
        for begin, end in sentence_spans(passage.text):
            sentence = passage.text[begin:end]
            overlap = len(wanted & terms(sentence))
            states_quantity = any(pattern.search(sentence) for pattern in asked)
            if overlap == 0 and not states_quantity:
                continue
            score = overlap + context - 0.05 * rank
            score += 1.5 if states_quantity else (0.5 if quantity and NUMBER.search(sentence) else 0.0)
            scored.append(Scored(score, passage, begin, end))
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
        chosen = best_sentences(question, passages, limit=12)
        steps += 1
        tracer.add("lexical.read", sentences=[(s.passage.iri, s.start, s.end, round(s.score, 2)) for s in chosen], steps=steps)
        if not chosen:
            return Answer(question, "lexical", "The best passages do not contain the question's terms; no answer is given.", found_evidence=False)
        builder = CitationBuilder(self.store)
        items: dict[str, AnswerItem] = {}
        for scored in chosen:
            quote = scored.passage.text[scored.start : scored.end].strip()
            if quote not in items and (len(items) == ANSWER_SENTENCES or scored.score < SECOND_SENTENCE_SHARE * chosen[0].score):
                continue
            item = items.setdefault(quote, AnswerItem(text=quote))
            citation = builder.cite(scored.passage.iri, quote=quote)
            if citation is not None and citation not in item.citations:
                item.citations.append(citation)
        return Answer(question, "lexical", " ".join(items), items=list(items.values()))
