"""Route a question to the domain agent (corpus-wide structure) or the lexical agent (passages).

Cheapest first: deterministic cue rules for the unambiguous cases, then a nearest-neighbour vote
over labelled example questions, then (only with an LLM backend) one tool-free call choosing a
label. Every decision says why.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from kb.agent.llm import LLMChain, LLMReply

Route = Literal["domain", "lexical", "hybrid"]

MEASURE_UNITS = r"volumes?|equivalents?|equiv|kg|g|grams?|kilograms?|litres?|liters?|l|ml|moles?|mol|hours?|minutes?|h|min|bar"  # "how many volumes" asks a quantity, "how many steps" counts
DOMAIN_CUES: list[tuple[str, re.Pattern[str]]] = [
    ("overlap", re.compile(r"\b(in common|both|shared|share|common to|together)\b", re.IGNORECASE)),
    ("exclusivity", re.compile(r"\b(unique to|only (in|mentioned in|used in)|exclusively|not in any other)\b", re.IGNORECASE)),
    ("counting", re.compile(r"\b(how many(?! (?:" + MEASURE_UNITS + r")\b)|count|number of (distinct|different)|top (\d+|three|five|ten)|(which|what) (two|three|four|five|ten) \w+|in the most|most (often|frequent|used|common)|rank)\b", re.IGNORECASE)),
    ("connectivity", re.compile(r"\b(connect|path from|lead(s)? from|turned into|synthesis path|route from|how is .+ (made|converted))\b", re.IGNORECASE)),
    ("version_change", re.compile(r"\b(chang\w*|differ\w*|modif\w*|evolv\w*|across (report )?versions|over (the )?versions|between v(ersion)?\s*\d)\b", re.IGNORECASE)),
    ("fan_in", re.compile(r"\b(which|what|list( all)?) (process )?steps\b", re.IGNORECASE)),
    ("order", re.compile(r"\b(order of the (process )?steps|comes? (after|before)|in order)\b", re.IGNORECASE)),
    ("mentions", re.compile(r"\b(which documents mention|where is .+ mentioned|every passage)\b", re.IGNORECASE)),
]
LEXICAL_CUES: list[tuple[str, re.Pattern[str]]] = [
    ("quantity", re.compile(r"\b(what|which) (temperature|time|pressure|ph|yield|purity|volume|amount|concentration|equivalents?|mass|scale|ratio)\b", re.IGNORECASE)),
    ("measure", re.compile(r"\bhow many (" + MEASURE_UNITS + r")\b", re.IGNORECASE)),
    ("reported value", re.compile(r"\b(what|which)\b[^?]{0,80}\b(was|were|is) (reported|stated|measured|obtained|found|used)\b|\bwhat (was|is) the (?!order)[\w\s/-]{1,60}\b(for|of)\b|"
                                   r"\b(at|in|under|to) (what|which) (temperature|solvent|pressure|ph)\b|\bdid (lot|batch) \S+ (give|reach)\b", re.IGNORECASE)),
    ("how much", re.compile(r"\bhow (long|much|hot|cold)\b", re.IGNORECASE)),
    ("identifier", re.compile(r"\b(lot|batch) (number|no\.?|id)s?\b", re.IGNORECASE)),
    ("specific document", re.compile(r"\b(in|according to|from) (report|the report|the method|the appendix|the slide|slide|TR-)\b", re.IGNORECASE)),
    ("explanation", re.compile(r"\b(why|explain|reason|conclusion|recommend)\w*\b", re.IGNORECASE)),
]
WEAK_LEXICAL_CUES = {"specific document", "reported value"}
HYBRID_CUES = re.compile(r"\b(with (their|the) (temperatures?|conditions|yields?|quotes?)|and (at|under) what conditions)\b", re.IGNORECASE)


@dataclass(frozen=True)
class RouteDecision:
    route: Route
    method: Literal["rules", "nearest-neighbour", "llm", "default"]
    reason: str
    question_class: str = ""


def rule_route(question: str) -> RouteDecision | None:
    """Decide from cue phrases; None when the cues are absent or conflict."""
    domain = [name for name, pattern in DOMAIN_CUES if pattern.search(question)]
    lexical = [name for name, pattern in LEXICAL_CUES if pattern.search(question)]
    structural = [d for d in domain if d not in ("fan_in", "mentions")]
    if domain and HYBRID_CUES.search(question):
        return RouteDecision("hybrid", "rules", f"structure cue '{domain[0]}' plus a request for passage detail", domain[0])
    if structural and not lexical:
        return RouteDecision("domain", "rules", f"corpus-wide cue: {', '.join(structural)}", structural[0])
    if lexical and not structural:
        if domain:
            return None
        return RouteDecision("lexical", "rules", f"local-fact cue: {', '.join(lexical)}")
    if structural and lexical and "version_change" in structural:
        return RouteDecision("domain", "rules", "change across versions outranks the local cue", "version_change")
    if structural and set(lexical) <= WEAK_LEXICAL_CUES:
        return RouteDecision("domain", "rules", f"corpus-wide cue {structural[0]} outranks the phrasing cue {lexical[0]}", structural[0])
    if domain and not lexical:
        return RouteDecision("domain", "rules", f"cue: {', '.join(domain)}", domain[0])
    return None


class NearestNeighbourRouter:
    """Cosine vote of the k nearest labelled example questions (embeddings from a wheel)."""

    def __init__(self, examples: list[tuple[str, str]], embed: Callable[[list[str]], np.ndarray], *, k: int = 5, margin: float = 0.2) -> None:
        self.labels = [label for _, label in examples]
        self.embed = embed
        self.vectors = normalise(embed([text for text, _ in examples])) if examples else np.zeros((0, 1))
        self.k = k
        self.margin = margin

    def route(self, question: str) -> RouteDecision | None:
        if not self.labels:
            return None
        query = normalise(self.embed([question]))[0]
        scores = self.vectors @ query
        top = np.argsort(-scores, kind="stable")[: self.k]
        votes: dict[str, float] = {}
        for i in top:
            votes[self.labels[i]] = votes.get(self.labels[i], 0.0) + float(scores[i])
        ranked = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))
        total = sum(v for _, v in ranked) or 1.0
        best, best_score = ranked[0]
        runner = ranked[1][1] if len(ranked) > 1 else 0.0
        if (best_score - runner) / total < self.margin:
            return None
        return RouteDecision(best, "nearest-neighbour", f"{best} examples are nearest (vote {best_score:.2f} vs {runner:.2f})")  # type: ignore[arg-type]


def normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


def llm_route(question: str, llm: LLMChain) -> tuple[RouteDecision | None, LLMReply | None]:
    if not llm.enabled:
        return None, None
    instruction = (
        "Route a question about pharmaceutical process documents. 'domain' means the answer is a list or count "
        "over the whole corpus (overlap, uniqueness, counting, connections, changes across versions). 'lexical' means "
        f"the answer is a fact stated in one passage.\nQuestion: {question}"
    )
    choice, reply = llm.choose(instruction, ["domain", "lexical"])
    if choice is None:
        return None, reply
    return RouteDecision(choice, "llm", f"LLM ({reply.backend}) chose {choice}"), reply  # type: ignore[arg-type]


class Router:
    def __init__(self, neighbours: NearestNeighbourRouter | None, llm: LLMChain) -> None:
        self.neighbours = neighbours
        self.llm = llm

    def route(self, question: str) -> tuple[RouteDecision, LLMReply | None]:
        decision = rule_route(question)
        if decision:
            return decision, None
        if self.neighbours:
            decision = self.neighbours.route(question)
            if decision:
                return decision, None
        decision, reply = llm_route(question, self.llm)
        if decision:
            return decision, reply
        return RouteDecision("lexical", "default", "no cue decided; passages are the safe default"), reply
