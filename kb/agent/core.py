"""The agent: route a question, run the domain and/or lexical agent, assemble a cited answer."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any

from kb.agent.answer import Answer, Tracer, TraceStep
from kb.agent.domain import DomainAgent
from kb.agent.lexical import LexicalAgent, Search
from kb.agent.linking import EntityLinker, LinkedQuestion
from kb.agent.llm import LLMChain
from kb.agent.phrasing import phrase_answer
from kb.agent.router import NearestNeighbourRouter, Router, rule_route
from kb.config import Config
from kb.queries import TemplateRegistry, queries_dir
from kb.store import GraphStore

MAX_QUESTION_CHARS = 1000
LEXICAL_EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "agent" / "lexical_examples.txt"


def clean_question(question: str) -> str:
    """Normalise Unicode, drop control characters, collapse whitespace."""
    text = unicodedata.normalize("NFKC", question)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch in "\n\t")
    return re.sub(r"\s+", " ", text).strip()


def router_examples(registry: TemplateRegistry) -> list[tuple[str, str]]:
    domain = [(e, "domain") for t in registry.all("template") for e in t.examples]
    lexical = [(line.strip(), "lexical") for line in LEXICAL_EXAMPLES.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return domain + lexical


class Agent:
    """One per store state; building it loads the label index and the templates once."""

    def __init__(self, store: GraphStore, config: Config, *, search: Search | None = None, embed=None) -> None:  # type: ignore[no-untyped-def]
        self.store = store
        self.config = config
        self.llm = LLMChain.from_config(config)
        self.registry = TemplateRegistry.load(queries_dir(config))
        self._search = search
        self._embed = embed

    @cached_property
    def linker(self) -> EntityLinker:
        return EntityLinker.from_store(self.store)

    @cached_property
    def router(self) -> Router:
        neighbours = NearestNeighbourRouter(router_examples(self.registry), self._embed) if self._embed else None
        return Router(neighbours, self.llm)

    @cached_property
    def domain(self) -> DomainAgent:
        return DomainAgent(self.store, self.registry, self.llm)

    @cached_property
    def lexical(self) -> LexicalAgent:
        search = self._search
        if search is None:
            from kb.retrieval.search import search as passage_search

            def search(question: str, filters: dict[str, str], k: int):  # type: ignore[no-untyped-def]
                """Fused hits, then keyword hits fusion left out: exact codes and table terms the
                embedding dilutes ('purge factor', 'run 5') still reach the reader."""
                return passage_search(question, filters, k, config=self.config, keyword_extra=k)

        return LexicalAgent(self.store, search, self.llm, chapter=self._chapter if self._search is None else None)

    def _chapter(self, iri: str) -> list[Any]:
        """The passages of a hit's top-level section, for the lexical agent's 'open the section' tool."""
        from kb.retrieval.neighbours import chapter_chunks
        from kb.retrieval.search import Passage, cached_index

        index = cached_index(self.config)
        return [Passage.of(record, 0.0, [], {}) for record in chapter_chunks(index, iri)] if iri in index.row_of else []

    def compare_versions(self, text: str, linked: LinkedQuestion, tracer: Tracer) -> Answer:
        """A change between two named versions: each version's own statement leads, in the order asked,
        then the condition values the graph records as changed between them (all steps)."""
        passages = self.lexical.answer(text, linked, tracer)
        structured = self.domain.answer(text, linked, "version_change", tracer)
        if not passages.found_evidence:
            return structured
        if structured.found_evidence:
            passages.items.extend(structured.items)
            passages.route = "hybrid"
        return passages

    def ask(self, question: str, *, route: str | None = None, on_step: Callable[[TraceStep], None] | None = None) -> Answer:
        """Answer with citations; never writes to the store. ``on_step`` streams the trace."""
        tracer = Tracer(on_step)
        text = clean_question(question)
        if not text:
            return Answer(question, "refused", "The question is empty.", found_evidence=False)
        if len(text) > MAX_QUESTION_CHARS:
            return Answer(question[:200], "refused", f"The question is longer than {MAX_QUESTION_CHARS} characters; please shorten it.", found_evidence=False)
        linked = self.linker.link(text)
        tracer.add("link", entities=[(l.surface, l.label, l.kind, l.score) for l in linked.entities], series=linked.series,
                   versions=linked.versions, roles=linked.roles, conditions=linked.conditions)
        if route:
            cues = rule_route(text)
            decision_route, question_class = route, cues.question_class if cues else ""
            tracer.add("route", route=route, method="forced", reason="forced by caller", question_class=question_class)
        else:
            decision, reply = self.router.route(text)
            decision_route, question_class = decision.route, decision.question_class
            tracer.add("route", route=decision.route, method=decision.method, reason=decision.reason, question_class=question_class,
                       llm_calls=[c.__dict__ for c in (reply.calls if reply else [])])
        if decision_route == "domain" and question_class == "version_change" and linked.series and len(linked.versions) >= 2 and route is None:
            answer = self.compare_versions(text, linked, tracer)
        elif decision_route == "domain":
            answer = self.domain.answer(text, linked, question_class, tracer)
            if not answer.found_evidence and route is None:
                tracer.add("fallback", reason="domain agent found nothing; trying passages")
                answer = self.lexical.answer(text, linked, tracer)
        elif decision_route == "hybrid":
            structured = self.domain.answer(text, linked, question_class, tracer)
            passages = self.lexical.answer(text, linked, tracer)
            answer = structured if structured.found_evidence else passages
            if structured.found_evidence and passages.found_evidence:
                answer.items.extend(passages.items)
                answer.route = "hybrid"
        else:
            answer = self.lexical.answer(text, linked, tracer)
        if self.llm.enabled and answer.found_evidence:
            phrase_answer(answer, self.llm, tracer)
        answer.question = question
        answer.trace = tracer.steps
        return answer
