"""Retrieval evaluation against the demo program's ground truth.

For every ground-truth fact a question is formed by template from the fact's kind and subject
(never from its sentence), in up to two wordings: anchored (names the report and version) and
unanchored (names nothing). The unanchored wording is only formed when the fact's (kind, subject)
has exactly one value in the whole ground truth, the rule of the harness's question designer
(kb/evaluation/designer.py): "Which solvent is step 6 carried out in?" has no single answer when
report versions changed the solvent, so such a fact is asked in its anchored wording only. A
chunk answers a question when it states the same fact (kind, subject and value): in the named
document for anchored questions, in any document for unanchored ones (a later version repeating
the sentence states the fact too). The rank of the first such chunk is recorded for BM25-only,
dense-only and fused search, and summarised as recall@1/5/10 and MRR per question kind:
anchored, unanchored, table (facts stated in a table cell, anchored wording) and german (facts
on the German page, English wording, unanchored when the value is unique).

Only the question builder and the gold matcher read ground truth; the search path sees nothing
but the question text.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from kb.config import Config
from kb.demo.naming import EntityNames
from kb.retrieval.chunks import ChunkRecord
from kb.retrieval.index import PassageIndex
from kb.retrieval.search import effective_filters, rank

KINDS = ("anchored", "unanchored", "table", "german")
# label -> (method, fusion, anchor the question's report/version as a filter)
METHODS = {
    "bm25": ("keyword", "rrf", True),
    "dense": ("dense", "rrf", True),
    "fused (rrf)": ("fused", "rrf", True),
    "fused (weighted)": ("fused", "weighted", True),
    "fused (rrf, no anchoring)": ("fused", "rrf", False),
}
DEPTH = 100

# how a question asks for each kind of fact; {s} is the subject, {e} a second entity or run
TEMPLATES: dict[str, str] = {
    "solvent": "Which solvent is {s} carried out in?",
    "temperature": "What reaction temperature is used for {s}?",
    "volume": "How much {e} (in volumes) is charged in {s}?",
    "equivalents": "How many equivalents of {e} are added in {s}?",
    "time": "How long is the reaction held for {s}?",
    "yield": "What isolated yield does {s} achieve?",
    "purity": "How pure is the product of {s}?",
    "batch yield": "What yield did batch {s} give?",
    "batch purity": "What was the purity by HPLC of batch {s}?",
    "conclusion": "What is the recommendation for {s}?",
    "screen conversion": "What conversion was reached with {e} when solvents were screened for {s}?",
    "screen impurity": "How much impurity formed with {e} when solvents were screened for {s}?",
    "screen yield": "What yield was obtained with {e} when solvents were screened for {s}?",
    "DoE yield": "What yield did {e} of the designed experiments for {s} give?",
    "DoE impurity": "What impurity level did {e} of the designed experiments for {s} give?",
    "impurity level": "What is the level of {e} after {s}?",
    "water study conversion": "What conversion was seen at {e} water when water sensitivity was studied for {s}?",
    "catalyst loading": "How much {e} catalyst is loaded in {s}?",
    "residual palladium": "What palladium level remained after treatment with {e} in {s}?",
    "pH": "At what pH is {s} worked up?",
    "pressure": "What vacuum pressure is applied in {s}?",
    "residual solvent": "How much residual {e} was found in {s}?",
}
GENERIC = "What is the {k} reported for {s}?"


@dataclass(frozen=True)
class Evidence:
    """Where the ground truth says a fact is stated."""

    document: str
    text: str
    section: str
    in_table: bool


@dataclass(frozen=True)
class Question:
    fact_id: str
    kind: str
    text: str
    document: str
    fact_text: str
    evidence: tuple[Evidence, ...]


@dataclass
class Score:
    """Ranks (1-based; 0 = not in the first DEPTH) for one method and question kind."""

    ranks: list[int] = field(default_factory=list)

    def recall(self, k: int) -> float:
        return sum(1 for r in self.ranks if 0 < r <= k) / len(self.ranks) if self.ranks else 0.0

    def mrr(self) -> float:
        return sum(1.0 / r for r in self.ranks if r) / len(self.ranks) if self.ranks else 0.0


@dataclass
class EvaluationReport:
    scores: dict[tuple[str, str], Score] = field(default_factory=dict)
    unlocated: dict[str, int] = field(default_factory=dict)
    questions: int = 0
    misses: list[tuple[str, str, str]] = field(default_factory=list)

    def table(self) -> str:
        """Markdown: one row per question kind and method."""
        lines = ["| questions | method | n | recall@1 | recall@5 | recall@10 | MRR |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for kind in KINDS + ("all",):
            for method in METHODS:
                score = self.scores.get((kind, method))
                if score is None or not score.ranks:
                    continue
                lines.append(
                    f"| {kind} | {method} | {len(score.ranks)} | {score.recall(1):.3f} | {score.recall(5):.3f} "
                    f"| {score.recall(10):.3f} | {score.mrr():.3f} |"
                )
        return "\n".join(lines)


class Namer:
    """Readable names for ground-truth ids (steps, entities), so questions never quote the sentence."""

    def __init__(self, gt: dict[str, Any]) -> None:
        self.steps = {s["id"]: f"the {s['name']} step (step {s['number']})" for s in gt.get("steps", [])}
        self.entities = EntityNames(gt)

    def name(self, ident: str, document: str) -> str:
        if ident in self.steps:
            return self.steps[ident]
        if ident in self.entities:
            return self.entities(ident, document)
        return ident.replace("/", " of ").replace("-", " ") if ident.islower() else ident

    def subject(self, subject: str, document: str) -> tuple[str, str]:
        """'step/entity' -> (step name, entity name); 'entity@step' -> (step, entity); else (name, '')."""
        if "@" in subject:
            entity, step = subject.split("@", 1)
            return self.name(step, document), self.name(entity, document)
        if "/" in subject:
            step, entity = subject.split("/", 1)
            return self.name(step, document), self.name(entity, document)
        return self.name(subject, document), ""


def phrase(fact: dict[str, Any], namer: Namer) -> str:
    s, e = namer.subject(fact["subject"], fact["document"])
    template = TEMPLATES.get(fact["kind"])
    if template is None or ("{e}" in template and not e):
        return GENERIC.format(k=fact["kind"], s=f"{e} in {s}" if e else s)
    return template.format(s=s, e=e)


def anchor(document: dict[str, Any]) -> str:
    if document.get("series") or document.get("kind", "").startswith("technical"):
        return f"In report {document['report_id']} version {document['version']}"
    return f"In {document['report_id']} ({document['title']})"


def evidence_of(fact: dict[str, Any]) -> Evidence:
    return Evidence(fact["document"], fact["text"], fact["section"], fact["table"] is not None)


def ask(fact: dict[str, Any], kind: str, text: str, same: list[dict[str, Any]], *, anchored: bool) -> Question:
    """A question and its evidence: every statement of the same fact (kind, subject, value), in
    the fact's own document when the question is anchored, anywhere when it is not."""
    scope = [f for f in same if f["document"] == fact["document"]] if anchored else same
    return Question(fact["id"], kind, text, fact["document"], fact["text"], tuple(evidence_of(f) for f in scope))


def build_questions(gt: dict[str, Any]) -> list[Question]:
    """Questions for every fact: anchored wording always, unanchored only where it has one answer."""
    namer = Namer(gt)
    documents = {d["file"]: d for d in gt["documents"]}
    out: list[Question] = []
    statements: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    values: dict[tuple[str, str], set[str]] = defaultdict(set)
    for fact in gt["facts"]:
        statements[(fact["kind"], fact["subject"], fact["value"])].append(fact)
        values[(fact["kind"], fact["subject"])].add(fact["value"])
    for fact in gt["facts"]:
        same = statements[(fact["kind"], fact["subject"], fact["value"])]
        unique = len(values[(fact["kind"], fact["subject"])]) == 1
        document = documents[fact["document"]]
        body = phrase(fact, namer)
        anchored = f"{anchor(document)}, {body[0].lower()}{body[1:]}"
        if document.get("language", "en") != "en":
            out.append(ask(fact, "german", body if unique else anchored, same, anchored=not unique))
        elif fact["table"] is not None:
            out.append(ask(fact, "table", anchored, same, anchored=True))
        else:
            out.append(ask(fact, "anchored", anchored, same, anchored=True))
            if unique:
                out.append(ask(fact, "unanchored", body, same, anchored=False))
    return out


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def holds(record: ChunkRecord, fact_text: str) -> bool:
    """The chunk states the fact text (whole-token match, so '0.40' is not found in '10.40')."""
    pattern = r"(?<![\w.])" + re.escape(squash(fact_text)) + r"(?![\w])"
    return re.search(pattern, squash(record.text)) is not None


def gold_chunks(question: Question, index: PassageIndex) -> set[str]:
    """IRIs of the chunks that state the question's fact, per piece of evidence: the chunks of
    its document holding the evidence text (a table chunk for a cell, the stated section when that
    decides between several)."""
    gold: set[str] = set()
    for evidence in question.evidence:
        in_document = index.by_graph.get(index.graph_of_file.get(evidence.document, ""), [])
        holding = [r for r in in_document if holds(r, evidence.text) and (r.kind == "table") == evidence.in_table]
        holding = holding or [r for r in in_document if holds(r, evidence.text)]
        in_section = [r for r in holding if r.section_path == evidence.section]
        gold.update(r.iri for r in in_section or holding)
    return gold


def first_rank(passages: list[str], gold: set[str]) -> int:
    return next((i for i, iri in enumerate(passages, start=1) if iri in gold), 0)


def evaluate(index: PassageIndex, questions: list[Question], config: Config, *, keep_misses: int = 0) -> EvaluationReport:
    """Rank of the gold chunk for every locatable question under every method."""
    report = EvaluationReport(questions=len(questions))
    for question in questions:
        gold = gold_chunks(question, index)
        if not gold:
            report.unlocated[question.kind] = report.unlocated.get(question.kind, 0) + 1
            continue
        for label, (method, fusion_kind, anchor) in METHODS.items():
            filters = effective_filters(question.text, None, index, anchor=anchor)
            rows = rank(index, question.text, filters, method=method, fusion_kind=fusion_kind,
                        candidates=max(config["retrieval.candidates"], DEPTH), model=config["embedding.model"],
                        threads=config["embedding.threads"])
            position = first_rank([index.records[row].iri for row, _, _ in rows[:DEPTH]], gold)
            for kind in (question.kind, "all"):
                report.scores.setdefault((kind, label), Score()).ranks.append(position)
            if label == "fused (rrf)" and not 0 < position <= 10 and len(report.misses) < keep_misses:
                report.misses.append((question.kind, question.text, question.fact_text))
    return report

