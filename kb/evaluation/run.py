"""Run every system over the bank (answers first, scoring after) and aggregate the tables."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from kb.agent.llm import LLMChain
from kb.evaluation.bank import Question, view
from kb.evaluation.scoring import (
    GoldMatcher,
    choose_letter,
    set_scores,
    tier2_score,
    value_present,
)
from kb.evaluation.stats import cohen_kappa, wilson_interval
from kb.evaluation.systems import Respond, Response

Embed = Callable[[list[str]], np.ndarray]
ChunkText = Callable[[str], str | None]


@dataclass
class Scored:
    question: str
    system: str
    cohort: str
    route: str
    expected_route: str
    answer: str
    letter: str | None = None
    t1: bool | None = None
    t2_score: int | None = None
    t2: bool | None = None
    judge_score: int | None = None
    similarity: float | None = None
    precision: float | None = None
    recall: float | None = None
    fact: bool | None = None
    items: int = 0
    items_cited: int = 0
    items_verbatim: int = 0
    seconds: float = 0.0


@dataclass
class Evaluation:
    scored: list[Scored] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def answer_all(systems: dict[str, Respond], bank: list[Question], progress: Callable[[str], None] | None = None) -> dict[str, list[tuple[Response, float]]]:
    """The answering pass: systems see only stems and options (QuestionView)."""
    out: dict[str, list[tuple[Response, float]]] = {}
    for name, respond in systems.items():
        rows = []
        for question in bank:
            started = time.perf_counter()
            response = respond(view(question))
            rows.append((response, time.perf_counter() - started))
            if progress:
                progress(name)
        out[name] = rows
    return out


def cosine(embed: Embed, a: list[str], b: list[str]) -> list[float]:
    if not a:
        return []
    va, vb = embed(a), embed(b)
    va = va / np.maximum(np.linalg.norm(va, axis=1, keepdims=True), 1e-12)
    vb = vb / np.maximum(np.linalg.norm(vb, axis=1, keepdims=True), 1e-12)
    return [float(x) for x in (va * vb).sum(axis=1)]


def judge(llm: LLMChain, question: Question, answer: str) -> int | None:
    prompt = (
        "Score the answer's factual correctness against the reference from 0 (wrong) to 5 (complete and correct). "
        f"Reply with one digit.\nQuestion: {question.stem}\nReference: {question.explanation}\nAnswer: {answer}"
    )
    choice, _ = llm.choose(prompt, [str(n) for n in range(6)])
    return int(choice) if choice is not None else None


def check_citations(scored: Scored, response: Response, chunk_text: ChunkText) -> None:
    """Answer items with at least one citation, and those whose every quote is in its cited chunk
    as it stands in the store (issue 10: every item cited, every quote verbatim)."""
    scored.items = len(response.items)
    for item in response.items:
        citations = item.get("citations") or []
        scored.items_cited += bool(citations)
        scored.items_verbatim += bool(citations) and all(c["quote"] in (chunk_text(c["chunk"]) or "") for c in citations)


def score_all(bank: list[Question], answers: dict[str, list[tuple[Response, float]]], gt: dict[str, Any], embed: Embed | None, llm: LLMChain | None,
              chunk_text: ChunkText | None = None) -> Evaluation:
    """Tier 1 and 2, list P/R, fact accuracy (every gold value stated, on local-fact questions) and,
    with ``chunk_text``, the citation check."""
    matcher = GoldMatcher(gt)
    evaluation = Evaluation()
    for system, rows in answers.items():
        sims = cosine(embed, [r.answer or "-" for r, _ in rows], [q.explanation or q.stem for q in bank]) if embed else [None] * len(rows)
        for question, (response, seconds), sim in zip(bank, rows, sims):
            scored = Scored(question.id, system, question.cohort, response.route, question.expected_route, response.answer, seconds=round(seconds, 4))
            if question.cohort == "list":
                found = sorted({gid for item in response.items for gid in matcher.ids(item["text"])})
                scored.precision, scored.recall = set_scores(question.gold_set, found)
            else:
                scored.letter = choose_letter(question.options, response.evidence)
                scored.t1 = scored.letter == question.correct
                scored.t2_score = tier2_score(question, response.answer, response.citations)
                scored.t2 = scored.t2_score >= 4
                scored.similarity = None if sim is None else round(sim, 4)
                if llm is not None and llm.enabled:
                    scored.judge_score = judge(llm, question, response.answer)
                if question.expected_route == "lexical":
                    scored.fact = all(value_present(value, response.answer) for value in question.gold_values)
            if chunk_text is not None:
                check_citations(scored, response, chunk_text)
            evaluation.scored.append(scored)
    evaluation.summary = summarise(evaluation.scored)
    return evaluation


def rate(flags: list[bool]) -> dict[str, float]:
    k, n = sum(flags), len(flags)
    low, high = wilson_interval(k, n)
    return {"k": k, "n": n, "rate": k / n if n else 0.0, "low": low, "high": high}


def contingency(rows: list[Scored]) -> dict[str, Any]:
    pp = sum(1 for r in rows if r.t1 and r.t2)
    t1_only = sum(1 for r in rows if r.t1 and not r.t2)
    t2_only = sum(1 for r in rows if r.t2 and not r.t1)
    ff = sum(1 for r in rows if not r.t1 and not r.t2)
    return {"both_pass": pp, "t1_only": t1_only, "t2_only": t2_only, "both_fail": ff, "kappa": cohen_kappa(pp, t1_only, t2_only, ff)}


def quadrants(rows: list[Scored]) -> dict[str, int]:
    """Judge (T2 pass) x similarity split at the cohort's median similarity; 'trap' = similar but wrong."""
    sims = [r.similarity for r in rows if r.similarity is not None]
    if not sims:
        return {}
    median = statistics.median(sims)
    out = {"on_topic": 0, "paraphrased": 0, "trap": 0, "off_topic": 0}
    for r in rows:
        high = (r.similarity or 0.0) >= median
        out["on_topic" if r.t2 and high else "paraphrased" if r.t2 else "trap" if high else "off_topic"] += 1
    return out


def summarise(scored: list[Scored]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for system in sorted({s.system for s in scored}, key=["router", "lexical", "domain", "bm25", "dense"].index):
        rows = [s for s in scored if s.system == system]
        mcq = [s for s in rows if s.cohort != "list"]
        lists = [s for s in rows if s.cohort == "list"]
        cohorts = {}
        for cohort in sorted({s.cohort for s in mcq}):
            part = [s for s in mcq if s.cohort == cohort]
            cohorts[cohort] = {"tier1": rate([bool(s.t1) for s in part]), "tier2": rate([bool(s.t2) for s in part]),
                               "contingency": contingency(part), "quadrants": quadrants(part)}
        summary[system] = {
            "tier1": rate([bool(s.t1) for s in mcq]),
            "tier2": rate([bool(s.t2) for s in mcq]),
            "contingency": contingency(mcq),
            "quadrants": quadrants(mcq),
            "cohorts": cohorts,
            "lists": {"n": len(lists), "precision": float(np.mean([s.precision for s in lists])) if lists else None,
                      "recall": float(np.mean([s.recall for s in lists])) if lists else None},
            "fact_accuracy": rate([s.fact for s in rows if s.fact is not None]),
            "citations": {"items": sum(s.items for s in rows), "cited": sum(s.items_cited for s in rows),
                          "verbatim": sum(s.items_verbatim for s in rows)},
            "routing_accuracy": rate([s.route.startswith(s.expected_route) or (s.route == "hybrid") for s in rows]),
            "latency_p50_s": float(np.percentile([s.seconds for s in rows], 50)) if rows else None,
            "latency_p95_s": float(np.percentile([s.seconds for s in rows], 95)) if rows else None,
        }
    return summary


def rows_as_dicts(scored: list[Scored]) -> list[dict[str, Any]]:
    return [asdict(s) for s in scored]
