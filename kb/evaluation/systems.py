"""The systems under test, all answering a QuestionView (stem and options) and nothing else.

router / lexical / domain run the agent (the last two with the route forced); bm25 and dense are
the seed's passage baselines: top passages by one retrieval method, answered extractively.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kb.agent.core import Agent
from kb.agent.lexical import best_sentences
from kb.evaluation.bank import QuestionView

SYSTEMS = ("router", "lexical", "domain", "bm25", "dense")


@dataclass
class Response:
    """What a system said: its answer, the text of its evidence, its cited items and route."""

    question: str
    system: str
    answer: str
    evidence: str
    route: str
    items: list[dict[str, Any]] = field(default_factory=list)
    citations: list[dict[str, Any]] = field(default_factory=list)


Respond = Callable[[QuestionView], Response]


def agent_system(agent: Agent, name: str, route: str | None) -> Respond:
    def respond(view: QuestionView) -> Response:
        answer = agent.ask(view.stem, route=route)
        data = answer.to_json()
        quotes = [c["quote"] for c in data["citations"]]
        decided = next((t["detail"]["route"] for t in data["trace"] if t["step"] == "route"), data["route"])
        return Response(view.id, name, data["answer"], " ".join([data["answer"], *quotes]), decided,
                        items=[{"text": i["text"], "entity": i["entity"], "citations": i["citations"]} for i in data["items"]],
                        citations=data["citations"])

    return respond


def passage_system(search: Callable[..., list[Any]], name: str, method: str, k: int = 5) -> Respond:
    def respond(view: QuestionView) -> Response:
        passages = search(view.stem, None, k, method=method)
        sentences = best_sentences(view.stem, passages, limit=2)
        answer = " ".join(s.passage.text[s.start : s.end].strip() for s in sentences)
        citations = [{"chunk": p.iri, "quote": p.text, "title": p.title, "page": p.page} for p in passages[:3]]
        return Response(view.id, name, answer, " ".join([answer, *(p.text for p in passages[:3])]), "lexical", citations=citations)

    return respond


def build_systems(agent: Agent, search: Callable[..., list[Any]], names: tuple[str, ...] = SYSTEMS) -> dict[str, Respond]:
    makers: dict[str, Callable[[], Respond]] = {
        "router": lambda: agent_system(agent, "router", None),
        "lexical": lambda: agent_system(agent, "lexical", "lexical"),
        "domain": lambda: agent_system(agent, "domain", "domain"),
        "bm25": lambda: passage_system(search, "bm25", "keyword"),
        "dense": lambda: passage_system(search, "dense", "dense"),
    }
    return {name: makers[name]() for name in names}
