"""Question designer: a seeded, deterministic bank from the demo program's ground truth.

Per document, round(10 * words / 8000) questions bounded to 5..30, split over the easy-mixed,
hard-anchored and hard-unanchored cohorts; comparative questions over consecutive versions of a
report where a fact changed; list questions from the domain question classes. Distractors are
values of the same kind from the same corpus, filtered by the mirror-overlap rule; stems are
deduplicated across documents (content-word overlap > 0.65, identical evidence quotes).
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from kb.demo.naming import EntityNames
from kb.evaluation.bank import EvidenceLocation, Question
from kb.evaluation.stats import mirror_overlap_rejects, near_duplicate, question_count

LETTERS = ("A", "B", "C", "D")
CONDITIONS = {"temperature", "time", "equivalents", "volume", "pressure", "pH", "catalyst loading"}
RESULTS = {"yield", "purity", "batch yield", "batch purity", "impurity level", "overall yield", "residual palladium", "purge factor", "residual solvent"}
PROPERTIES = {"boiling point", "density", "ICH class", "PDE", "melting point"}
STEMS = {
    "temperature": ("What temperature was used for {s}?", "At what temperature was {s} carried out?"),
    "time": ("What reaction time was used for {s}?", "For how long was {s} held?"),
    "equivalents": ("How many equivalents of {s} were charged?", "What charge, in equivalents, was used for {s}?"),
    "volume": ("What volume was used for {s}?", "How many volumes were used for {s}?"),
    "pressure": ("What pressure was used for {s}?", "Under what pressure was {s} run?"),
    "pH": ("What pH was used for {s}?", "To which pH was {s} adjusted?"),
    "solvent": ("Which solvent was used for {s}?", "In which solvent was {s} run?"),
    "conclusion": ("What was concluded about {s}?", "What is the stated conclusion for {s}?"),
    "batch yield": ("What yield did lot {s} give?", "Which yield was reported for lot {s}?"),
    "batch purity": ("What purity did lot {s} reach?", "Which HPLC purity was reported for lot {s}?"),
}
TYPE_OF_KIND = [(CONDITIONS, "process conditions"), (RESULTS, "results"), (PROPERTIES, "properties"), ({"conclusion", "solvent"}, "procedure")]


def question_type(kind: str) -> str:
    return next((label for kinds, label in TYPE_OF_KIND if kind in kinds), "analytical method" if "method" in kind or kind in {"HPLC column", "flow rate", "RRT", "system suitability", "water limit"} else "results")


class Namer:
    """Readable names for ground-truth ids (steps, entities, 'step/substance' pairs, lots)."""

    def __init__(self, gt: dict[str, Any]) -> None:
        self.entities = EntityNames(gt)
        self.steps = {s["id"]: f"Step {s['number']} ({s['name']})" for s in gt["steps"]}

    def __call__(self, subject: str, document: str | None = None) -> str:
        """Key ids never reach a stem: 'imp@step' and 'step/parameter/substance' are spelled out,
        entities as the source document names them when the lexicon cannot link the two."""
        if "@" in subject:
            impurity, step = subject.split("@", 1)
            return f"{self.entities(impurity, document)} after {self.steps.get(step, step)}"
        if "/" in subject:
            step, thing = subject.split("/", 1)
            parameter, _, substance = thing.rpartition("/")
            named = f"the {parameter} of {self.entities(substance, document)}" if parameter else self.entities(thing, document)
            return f"{named} in {self.steps.get(step, step)}"
        return self.steps.get(subject) or self.entities(subject, document)


def stem_for(kind: str, subject: str, hard: bool) -> str:
    easy, paraphrase = STEMS.get(kind, ("What was the {k} for {s}?", "Which {k} was reported for {s}?"))
    return (paraphrase if hard else easy).format(s=subject, k=kind)


def anchor(document: dict[str, Any]) -> str:
    if document.get("report_id"):
        return f"In {document['report_id']} version {document['version']}"
    return f"In {document['file']}"


def pick_distractors(gold: str, pool: list[str], rng: random.Random) -> list[str] | None:
    candidates = sorted({v for v in pool if v != gold and not mirror_overlap_rejects(gold, v)})
    if len(candidates) < 3:
        return None
    return rng.sample(candidates, 3)


def lettered(gold: str, distractors: list[str], rng: random.Random) -> tuple[dict[str, str], str]:
    options = [gold] + distractors
    rng.shuffle(options)
    return dict(zip(LETTERS, options)), LETTERS[options.index(gold)]


def design_bank(gt: dict[str, Any], document_words: dict[str, int], *, seed: int = 7) -> list[Question]:
    """The whole bank: per-document MCQs, comparative MCQs, then list questions."""
    rng = random.Random(seed)
    name = Namer(gt)
    documents = {d["file"]: d for d in gt["documents"]}
    by_kind: dict[str, list[str]] = defaultdict(list)
    values_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    for fact in gt["facts"]:
        by_kind[fact["kind"]].append(fact["value"])
        values_of[(fact["kind"], fact["subject"])].add(fact["value"])
    facts_by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for fact in gt["facts"]:
        facts_by_doc[fact["document"]].append(fact)
    bank: list[Question] = []
    accepted: list[tuple[str, str]] = []

    def accept(question: Question) -> None:
        if any(near_duplicate(question.stem, s, question.evidence_quote, q) for s, q in accepted):
            return
        accepted.append((question.stem, question.evidence_quote))
        bank.append(question)

    for file in sorted(facts_by_doc):
        document = documents[file]
        wanted = question_count(document_words.get(file, 0))
        facts = sorted(facts_by_doc[file], key=lambda f: f["id"])
        rng.shuffle(facts)
        made = 0
        for fact in facts:
            if made >= wanted:
                break
            if not any(c.isalnum() for c in fact["value"]):
                continue  # a '-' cell states that nothing is listed; no option can name it
            unique = len(values_of[(fact["kind"], fact["subject"])]) == 1
            cohort = ("hard_unanchored" if unique else "hard_anchored") if made % 5 else "easy_mixed"
            hard = cohort != "easy_mixed"
            distractors = pick_distractors(fact["value"], by_kind[fact["kind"]], rng)
            if distractors is None:
                continue
            stem = stem_for(fact["kind"], name(fact["subject"], file), hard)
            if cohort != "hard_unanchored" and not (cohort == "easy_mixed" and unique and made % 2):
                stem = f"{anchor(document)}, {stem[0].lower()}{stem[1:]}"
            options, correct = lettered(fact["value"], distractors, rng)
            before = len(bank)
            accept(Question(
                id=f"q-{len(bank) + 1:04d}", stem=stem, options=options, correct=correct,
                explanation=f"{document['title']} states: {fact['text']}", evidence_quote=fact["text"],
                evidence_location=EvidenceLocation(document=file, section=fact["section"], page=fact["page"], table=fact["table"]),
                source_document=file, question_type=question_type(fact["kind"]), cohort=cohort,
                expected_route="lexical", gold_values=[fact["value"]],
            ))
            made += len(bank) - before
    for history in sorted(gt["fact_history"], key=lambda h: h["key"]):
        versions = {v["version"]: v for v in history["versions"]}
        for change in history["changes"]:
            previous = max((v for v in versions if v < change["version"]), default=None)
            if previous is None:
                continue
            old, new = versions[previous], versions[change["version"]]
            others = sorted({v for v in by_kind[history["kind"]] if v not in (old["value"], new["value"])})
            if len(others) < 1:
                continue
            gold = f"from {old['value']} to {new['value']}"
            distractors = [f"from {new['value']} to {old['value']}", f"it stayed at {old['value']}", f"from {old['value']} to {rng.choice(others)}"]
            options, correct = lettered(gold, distractors, rng)
            fact = next(f for f in gt["facts"] if f["id"] == new["fact"])
            accept(Question(
                id=f"q-{len(bank) + 1:04d}",
                stem=f"How did the {history['kind']} of {name(history['subject'], new['file'])} change from {old['file']} to {new['file']}?",
                options=options, correct=correct,
                explanation=f"It was {old['value']} in version {previous} and {new['value']} in version {change['version']}.",
                evidence_quote=fact["text"],
                evidence_location=EvidenceLocation(document=new["file"], section=fact["section"], page=fact["page"], table=fact["table"]),
                source_document=new["file"], question_type="comparison", cohort="comparative", expected_route="domain",
                gold_values=[old["value"], new["value"]], question_class="version_change",
            ))
    for i, item in enumerate(gt.get("question_classes", [])):
        if item["class"] == "evolution":
            continue
        bank.append(Question(
            id=f"l-{i + 1:03d}", stem=item["question"], options={}, correct="", explanation="", evidence_quote="",
            evidence_location=None, source_document="", question_type=item["class"], cohort="list", expected_route="domain",
            gold_set=list(item["answer"]), question_class=item["class"],
        ))
    return bank
