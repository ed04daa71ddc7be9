"""Resolution against the demo programme's ground truth (the only module that reads it).

Each resolved mention is labelled with the ground-truth entity its surface form names in its
document (forms are unique per document in the generator; a form unique across the programme is
the fallback); unlabelled mentions are extraction errors and are left to the extraction report.
Pairwise precision/recall/F1 count mention pairs placed in one cluster; near-miss pairs from the
generator's hard cases must never share a cluster.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from math import comb
from pathlib import Path

from kb.resolve.pipeline import Outcome

GT_TYPES = {"substance": "chemical_substance", "planned_process": "planned_process", "unit_operation": "unit_operation",
            "equipment": "equipment", "impurity": "impurity", "analytical_method": "analytical_method", "role": "role"}


def label_mentions(outcome: Outcome, truth: dict) -> dict[str, str]:
    """Mention IRI -> ground-truth entity id, where the surface form identifies one."""
    in_doc: dict[tuple[str, str], set[str]] = defaultdict(set)
    anywhere: dict[str, set[str]] = defaultdict(set)
    for m in truth["mentions"]:
        in_doc[(m["document"], m["form"].lower())].add(m["entity"])
        anywhere[m["form"].lower()].add(m["entity"])
    for e in truth["entities"]:
        for form in e["forms"]:
            anywhere[form.lower()].add(e["id"])
    corpus = outcome.corpus
    labels: dict[str, str] = {}
    for iri, m in outcome.resolution.mentions.items():
        doc = corpus.documents.get(corpus.document_of(m))
        name = (doc.name if doc else "").rsplit("/", 1)[-1]
        form = m.text.strip().lower()
        found = in_doc.get((name, form)) or anywhere.get(form, set())
        if len(found) == 1:
            labels[iri] = next(iter(found))
    return labels


def pairwise(clusters: list[list[str]], labels: dict[str, str]) -> dict[str, float]:
    """Pairwise merge precision, recall and F1 over labelled mentions."""
    joint: Counter[tuple[int, str]] = Counter()
    predicted: Counter[int] = Counter()
    gold: Counter[str] = Counter()
    for i, cluster in enumerate(clusters):
        for iri in cluster:
            if iri in labels:
                joint[(i, labels[iri])] += 1
                predicted[i] += 1
                gold[labels[iri]] += 1
    tp = sum(comb(n, 2) for n in joint.values())
    pp = sum(comb(n, 2) for n in predicted.values())
    gp = sum(comb(n, 2) for n in gold.values())
    precision = tp / pp if pp else 1.0
    recall = tp / gp if gp else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
            "labelled_mentions": sum(gold.values()), "true_pairs": tp, "predicted_pairs": pp, "gold_pairs": gp}


def load_truth(path: Path) -> dict:
    """The generator's ground_truth.json."""
    return json.loads(path.read_text(encoding="utf-8"))


def evaluate(outcome: Outcome, truth: dict) -> dict[str, object]:
    """Pairwise scores, entity counts per type vs ground truth, near-miss pairs merged."""
    labels = label_mentions(outcome, truth)
    clusters = outcome.resolution.clusters
    scores = pairwise(clusters, labels)
    cluster_of = outcome.resolution.cluster_of()
    merged_near_misses = []
    for pair in truth["hard_cases"]["near_misses"]:
        a = {cluster_of[i] for i, e in labels.items() if e == pair["a"]} | _by_text(outcome, pair["a"], cluster_of)
        b = {cluster_of[i] for i, e in labels.items() if e == pair["b"]} | _by_text(outcome, pair["b"], cluster_of)
        if a & b:
            merged_near_misses.append(f"{pair['a']} ~ {pair['b']}")
    found = Counter(GT_TYPES.get(e.kind, e.kind) for e in outcome.layer.entities.values())
    found["role"] = outcome.layer.role_clusters
    truth_counts = Counter(e["type"] for e in truth["entities"])
    types = sorted(set(truth_counts) | set(found))
    return {
        **scores,
        "entities": {t: {"resolved": found.get(t, 0), "ground_truth": truth_counts.get(t, 0)} for t in types},
        "near_misses": len(truth["hard_cases"]["near_misses"]),
        "near_misses_merged": merged_near_misses,
    }


def _by_text(outcome: Outcome, text: str, cluster_of: dict[str, int]) -> set[int]:
    """Clusters of mentions written exactly as `text` (lot numbers are not ground-truth entities)."""
    return {cluster_of[i] for i, m in outcome.resolution.mentions.items() if m.text.strip() == text}
