"""Answer latency p50/p95 per route on the demo program, with the `none` and `embedded` backends."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from kb.bench import Measurement, benchmark
from kb.bench.corpus import demo_store

ROUTES = ("domain", "lexical")


def questions(ground_truth: dict, limit: int = 20) -> dict[str, list[str]]:
    """Domain questions from the program's list classes, lexical ones from fact sentences' subjects."""
    domain = [q["question"] for q in ground_truth["question_classes"]][:limit]
    lexical = [f"What was the {f['kind']} reported in {f['document'].split('_')[0]}?" for f in ground_truth["facts"][::97]][:limit]
    return {"domain": domain, "lexical": lexical}


@benchmark("agent")
def agent_bench(out: Path) -> list[Measurement]:
    from kb.agent.core import Agent
    from kb.retrieval.dense import embed

    cache = out / ".cache"
    store, config, folder = demo_store(cache, 1)
    asked = questions(json.loads((folder / "ground_truth.json").read_text()))
    results = []
    for backend in ("none", "embedded"):
        agent = Agent(store, config.with_values(llm__backend=backend), embed=lambda texts: embed(config["embedding.model"], texts))
        agent.ask("warm up: which steps use water?")
        for route in ROUTES:
            timings = []
            for question in asked[route][: 20 if backend == "none" else 5]:
                started = time.perf_counter()
                agent.ask(question, route=route)
                timings.append(time.perf_counter() - started)
            params = {"backend": backend, "route": route, "questions": len(timings)}
            goal = "p95 < 2 s with none" if backend == "none" else ""
            results.append(Measurement("agent", "answer latency p50", float(np.percentile(timings, 50)), "s", params))
            results.append(Measurement("agent", "answer latency p95", float(np.percentile(timings, 95)), "s", params, goal))
    return results
