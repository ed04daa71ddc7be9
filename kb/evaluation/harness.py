"""`kb eval` end to end: design (or read) the bank, answer it with every system, score, report."""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.agent.citations import CitationBuilder
from kb.agent.core import Agent
from kb.config import Config
from kb.evaluation.bank import read_bank, write_bank
from kb.evaluation.designer import design_bank
from kb.evaluation.report import write_report
from kb.evaluation.review import export_review, read_taxonomy, select_for_review
from kb.evaluation.run import answer_all, rows_as_dicts, score_all
from kb.evaluation.systems import SYSTEMS, build_systems
from kb.store import GraphStore
from kb.vocab import sparql_prefixes

DOCUMENT_TEXT = sparql_prefixes() + "SELECT ?file ?text WHERE { GRAPH ?g { ?d a doco:Document ; cmc:fileName ?file ; nif:isString ?text } }"


def document_words(store: GraphStore) -> dict[str, int]:
    """Words per source file, from the lexical layer (the count formula's w)."""
    return {row["file"].value.rsplit("/", 1)[-1]: len(row["text"].value.split()) for row in store.query(DOCUMENT_TEXT)}


def evaluate(
    store: GraphStore,
    config: Config,
    ground_truth: Path,
    out: Path,
    *,
    bank_path: Path | None = None,
    systems: tuple[str, ...] = SYSTEMS,
    taxonomy: Path | None = None,
    seed: int = 7,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    started = time.perf_counter()
    gt = json.loads(ground_truth.read_text())
    if bank_path is not None and bank_path.is_file():
        bank = read_bank(bank_path)
    else:
        bank = design_bank(gt, document_words(store), seed=seed)
        write_bank(out / "bank.jsonl", bank)
    from kb.retrieval.dense import embed
    from kb.retrieval.search import search

    model = config["embedding.model"]
    embed_fn = lambda texts: embed(model, texts)
    agent = Agent(store, config, embed=embed_fn)

    def passage_search(question: str, filters: Any, k: int, *, method: str) -> list[Any]:
        return search(question, filters, k, config=config, method=method)

    answers = answer_all(build_systems(agent, passage_search, systems), bank, progress)
    chunks = CitationBuilder(store)
    evaluation = score_all(bank, answers, gt, embed_fn, agent.llm if agent.llm.enabled else None,
                           chunk_text=lambda iri: (chunks.chunk(iri) or {}).get("text"))
    out.mkdir(parents=True, exist_ok=True)
    review_csv = out / "tier3_review.csv"
    by_id = {q.id: q for q in bank}
    export_review(review_csv, select_for_review([s for s in evaluation.scored if s.system == "router"]), by_id)
    meta = {
        "questions": len(bank), "mcq": sum(1 for q in bank if q.cohort != "list"), "lists": sum(1 for q in bank if q.cohort == "list"),
        "ground_truth": str(ground_truth), "llm": config["llm.backend"], "seconds": time.perf_counter() - started,
        "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores", "review_csv": review_csv.name,
    }
    write_report(out, evaluation.summary, rows_as_dicts(evaluation.scored), meta, read_taxonomy(taxonomy) if taxonomy else None)
    return evaluation.summary
