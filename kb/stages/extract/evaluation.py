"""Scoring extraction against external annotations (ChemRxnExtractor roles) and the demo program.

ChemRxnExtractor passages carry one BIO label column per product; a token's gold roles are the
union over its columns, because the rule extractor does not condition roles on a product. Our
roles map onto its labels: solvent -> Solvent; reagent, catalyst, base -> Catalyst_Reagents;
starting material, intermediate -> Reactants; product -> Prod. A substance with no role in
context falls back to a default chosen on the train split (see `DEFAULTS`). The corpus labels
only the number of 'ketone 11', so a class-noun mention is scored on its number token.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from kb.stages.extract.mentions import Chunk, Mention
from kb.stages.extract.pipeline import extract_chunk

CHEMRXN_LABELS = ("Solvent", "Catalyst_Reagents", "Reactants", "Prod")
ROLE_TO_LABEL = {
    "solvent": "Solvent",
    "reagent": "Catalyst_Reagents",
    "catalyst": "Catalyst_Reagents",
    "base": "Catalyst_Reagents",
    "starting material": "Reactants",
    "intermediate": "Reactants",
    "product": "Prod",
    "quench agent": "Workup_reagents",
    "antisolvent": "Workup_reagents",
}
# label for a substance no context pattern assigned a role to, by lexicon category (chosen on train)
DEFAULTS: dict[str, str | None] = {"solvent": "Solvent", "lexicon": "Catalyst_Reagents", "other": "Reactants"}


@dataclass
class Passage:
    """One annotated passage: tokens, their offsets in the space-joined text, gold spans."""

    pid: str
    tokens: list[str]
    offsets: list[tuple[int, int]]
    gold: set[tuple[int, int, str]] = field(default_factory=set)

    @property
    def text(self) -> str:
        return " ".join(self.tokens)


def _bio_spans(labels: list[str]) -> set[tuple[int, int, str]]:
    spans: set[tuple[int, int, str]] = set()
    start, kind = -1, ""
    for i, label in enumerate([*labels, "O"]):
        if label.startswith("I-") and label[2:] == kind:
            continue
        if kind:
            spans.add((start, i, kind))
        start, kind = (i, label[2:]) if label != "O" else (-1, "")
    return spans


def read_chemrxn(path: Path) -> list[Passage]:
    """Parse a ChemRxnExtractor role file ('#\\tpassage=...' header, token + label columns)."""
    passages: list[Passage] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        pid = lines[0].split("passage=", 1)[-1].split("\t")[0] if lines[0].startswith("#") else str(len(passages))
        rows = [line.split("\t") for line in lines if not line.startswith("#")]
        tokens = [r[0] for r in rows]
        offsets, pos = [], 0
        for tok in tokens:
            offsets.append((pos, pos + len(tok)))
            pos += len(tok) + 1
        gold: set[tuple[int, int, str]] = set()
        for column in range(1, max(len(r) for r in rows)):
            gold |= _bio_spans([r[column] if column < len(r) else "O" for r in rows])
        passages.append(Passage(pid, tokens, offsets, {g for g in gold if g[2] in CHEMRXN_LABELS}))
    return passages


def predicted_label(substance: Mention, role: str | None, defaults: dict[str, str | None]) -> str | None:
    if role:
        return ROLE_TO_LABEL.get(role)
    category = substance.attr("category")
    if category == "solvent":
        return defaults["solvent"]
    return defaults["lexicon"] if substance.rule.startswith("lexicon.") else defaults["other"]


def predict(passage: Passage, defaults: dict[str, str | None] = DEFAULTS) -> set[tuple[int, int, str]]:
    """Token spans (start, end, label) the extractor assigns, mapped to ChemRxnExtractor labels."""
    mentions = extract_chunk(Chunk(f"urn:chemrxn:{passage.pid}", passage.text))
    roles = {(m.start, m.end): m.attr("role") for m in mentions if m.kind == "role"}
    out: set[tuple[int, int, str]] = set()
    for m in mentions:
        if m.kind != "substance":
            continue
        label = predicted_label(m, roles.get((m.start, m.end)), defaults)
        tokens = [i for i, (s, e) in enumerate(passage.offsets) if s < m.end and m.start < e]
        if m.rule.startswith("substance.class_number"):
            tokens = tokens[-1:]  # the corpus labels 'ketone 11' on '11' only
        if label in CHEMRXN_LABELS and tokens:
            out.add((tokens[0], tokens[-1] + 1, label))
    return out


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, predicted: set, gold: set) -> None:
        self.tp += len(predicted & gold)
        self.fp += len(predicted - gold)
        self.fn += len(gold - predicted)

    def as_dict(self) -> dict[str, float | int]:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "precision": round(self.precision, 3),
                "recall": round(self.recall, 3), "f1": round(self.f1, 3)}


def _tokens(spans: set[tuple[int, int, str]]) -> set[tuple[int, str]]:
    return {(i, label) for s, e, label in spans for i in range(s, e)}


def score_chemrxn(passages: list[Passage], defaults: dict[str, str | None] = DEFAULTS) -> dict[str, dict[str, dict[str, float | int]]]:
    """Token- and span-level precision/recall/F1 per label over the passages."""
    token: dict[str, Score] = defaultdict(Score)
    span: dict[str, Score] = defaultdict(Score)
    for passage in passages:
        predicted = predict(passage, defaults)
        for label in CHEMRXN_LABELS:
            p = {x for x in predicted if x[2] == label}
            g = {x for x in passage.gold if x[2] == label}
            span[label].add(p, g)
            token[label].add(_tokens(p), _tokens(g))
    return {
        "token": {label: token[label].as_dict() for label in CHEMRXN_LABELS},
        "span": {label: span[label].as_dict() for label in CHEMRXN_LABELS},
    }


# ---- demo program (kb/demo ground_truth.json) ----

DEMO_TYPES = {
    "substance": "chemical_substance",
    "planned_process": "planned_process",
    "unit_operation": "unit_operation",
    "equipment": "equipment",
    "impurity": "impurity",
    "analytical_method": "analytical_method",
    "role": "role",
}


def demo_sentences(gt: dict) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """(document, section, sentence text, gold [(form, type)]) per located sentence of the answer key."""
    types = {e["id"]: e["type"] for e in gt["entities"]}
    grouped: dict[tuple[str, str, str, str, str], list[tuple[str, str]]] = defaultdict(list)
    order: list[tuple[str, str, str, str, str]] = []
    for m in gt["mentions"]:
        key = (m["document"], m["section"], str(m["page"]), json_key(m["table"]), m["text"])
        if key not in grouped:
            order.append(key)
        grouped[key].append((m["form"], types[m["entity"]]))
    return [(k[0], k[1], k[4], grouped[k]) for k in order]


def json_key(value: object) -> str:
    import json

    return json.dumps(value, sort_keys=True)


def predicted_entities(text: str, iri: str = "urn:demo:sentence") -> list[tuple[str, str]]:
    """(verbatim, demo type) of every entity mention the extractor finds in one sentence.

    Role mentions count only where they are role words (rule lexicon.role); role assignments over
    a substance span are relations, scored with the step relations.
    """
    out = []
    for m in extract_chunk(Chunk(iri, text)):
        if m.kind == "role" and m.rule != "lexicon.role":
            continue
        if m.kind in DEMO_TYPES:
            out.append((m.text, DEMO_TYPES[m.kind]))
    return out


def _copies(text: str, gold: list[tuple[str, str]]) -> int:
    """How often the sentence occurs in its key group (one page can repeat a sentence verbatim).

    The key records every occurrence's references under the same (document, section, page, text),
    so a sentence written twice lists each form twice; a form the text itself repeats ('THF ... THF')
    is divided out, and the smallest ratio over the forms is taken so a miscount never inflates it.
    """
    counts = Counter(gold)
    return max(1, min(n // max(1, text.count(form)) for (form, _), n in counts.items()))


def score_demo_entities(gt: dict) -> dict[str, object]:
    """Mention-level P/R/F1 per entity type, distinct (document, entity) facts, out-of-lexicon recall.

    The answer key lists the references its generator recorded; text written literally ('purity by
    HPLC', 'Step 3 (...)') has no gold mention. `mentions_known_forms_credited` therefore also
    reports precision with a false positive credited when its text and type are exactly a surface
    form the key lists for an entity of that type; the strict figures stay the headline.
    """
    entities = {e["id"]: e for e in gt["entities"]}
    by_form: dict[tuple[str, str], set[str]] = defaultdict(set)
    for e in gt["entities"]:
        for form in e["forms"]:
            by_form[(form, e["type"])].add(e["id"])
            by_form[(form.lower(), e["type"])].add(e["id"])
    per_type: dict[str, Score] = defaultdict(Score)
    overall = Score()
    oov = Score()
    facts_pred: set[tuple[str, str]] = set()
    facts_gold: set[tuple[str, str]] = set()
    errors: list[tuple[str, str, str, str]] = []
    known_form_fp: dict[str, int] = defaultdict(int)
    for m in gt["mentions"]:
        facts_gold.add((m["document"], m["entity"]))
    cache: dict[str, list[tuple[str, str]]] = {}
    for document, _section, text, gold in demo_sentences(gt):
        if text not in cache:
            cache[text] = predicted_entities(text)
        predicted = cache[text] * _copies(text, gold)
        gold_left = list(gold)
        for item in predicted:
            ids = by_form.get(item) or by_form.get((item[0].lower(), item[1])) or set()
            facts_pred.update((document, i) for i in ids) if ids else facts_pred.add((document, "?" + item[0] + "|" + item[1]))
            if item in gold_left:
                gold_left.remove(item)
                per_type[item[1]].tp += 1
            else:
                per_type[item[1]].fp += 1
                if item in by_form:
                    known_form_fp[item[1]] += 1
                errors.append(("FP", item[1], item[0], text))
        for item in gold_left:
            per_type[item[1]].fn += 1
            errors.append(("FN", item[1], item[0], text))
        for form, type_ in gold:
            ids = [i for i in by_form.get((form, type_), set()) if not entities[i]["in_lexicon"]]
            if ids:
                oov.tp += int((form, type_) in predicted)
                oov.fn += int((form, type_) not in predicted)
    for score in per_type.values():
        overall.tp, overall.fp, overall.fn = overall.tp + score.tp, overall.fp + score.fp, overall.fn + score.fn
    facts = Score()
    facts.add(facts_pred, facts_gold)
    adjusted = {}
    for t in sorted(per_type):
        score = per_type[t]
        adjusted[t] = Score(score.tp + known_form_fp[t], score.fp - known_form_fp[t], score.fn).as_dict()
    return {
        "mentions": {t: per_type[t].as_dict() for t in sorted(per_type)},
        "mentions_known_forms_credited": adjusted,
        "overall": overall.as_dict(),
        "facts": facts.as_dict(),
        "out_of_lexicon_recall": round(oov.recall, 3),
        "out_of_lexicon_mentions": oov.tp + oov.fn,
        "errors": errors,
    }


RELATION_FIELDS = {
    "has_specified_input": "inputs",
    "has_specified_output": "outputs",
    "has_participant": "equipment",
    "has_part": "unit_operations",
    "precedes": "precedes",
}
OBJECT_TYPES = {"inputs": "chemical_substance", "roles": "chemical_substance", "outputs": "chemical_substance",
                "equipment": "equipment", "unit_operations": "unit_operation"}


def score_demo_relations(gt: dict, relations: list, files: dict[str, str]) -> dict[str, object]:
    """P/R/F1 per relation type against the answer key's per-document step states.

    `files` maps document IRIs to file names. Only documents for which the key states step
    relations are scored; relations found elsewhere are counted, not scored.
    """
    by_form: dict[tuple[str, str], set[str]] = defaultdict(set)
    for e in gt["entities"]:
        for form in e["forms"]:
            by_form[(form.lower(), e["type"])].add(e["id"])
    programme_of = {d["file"]: d["programme"] for d in gt["documents"]}
    step_ids = {(s["programme"], s["number"]): s["id"] for s in gt["steps"]}
    gold: dict[str, set[tuple]] = defaultdict(set)
    for r in gt["relations"]:
        d, s = r["document"], r["step"]
        gold["inputs"] |= {(d, s, i["entity"]) for i in r["inputs"]}
        gold["roles"] |= {(d, s, i["entity"], i["role"]) for i in r["inputs"]}
        gold["outputs"] |= {(d, s, o) for o in r["outputs"]}
        gold["equipment"] |= {(d, s, o) for o in r["equipment"]}
        gold["unit_operations"] |= {(d, s, o) for o in r["unit_operations"]}
        gold["precedes"] |= {(d, s, o) for o in r["precedes"]}
    scored_docs = {r["document"] for r in gt["relations"]}
    predicted: dict[str, set[tuple]] = defaultdict(set)
    unscored = 0
    for rel in relations:
        document = files.get(rel.document, rel.document)
        if document not in scored_docs:
            unscored += 1
            continue
        number = int(rel.step.split()[1])
        step = step_ids.get((programme_of.get(document), number), rel.step)
        field = RELATION_FIELDS[rel.predicate]
        if field == "precedes":
            target = step_ids.get((programme_of.get(document), int(rel.obj.split()[1])), rel.obj)
            predicted[field].add((document, step, target))
            continue
        ids = sorted(by_form.get((rel.obj.lower(), OBJECT_TYPES[field]), set())) or ["?" + rel.obj]
        for entity in ids:
            predicted[field].add((document, step, entity))
            if field == "inputs":
                predicted["roles"].add((document, step, entity, rel.role))
    scores = {}
    for field in ("inputs", "roles", "outputs", "equipment", "unit_operations", "precedes"):
        score = Score()
        score.add(predicted[field], gold[field])
        scores[field] = score.as_dict()
    return {"relations": scores, "unscored_relations": unscored, "scored_documents": len(scored_docs)}
