"""Per-step relations from mentions: inputs with roles, outputs, equipment, unit operations, order.

A step is in scope for a chunk when the chunk's section path names it ('Step 3: SNAr cyclisation')
or, sentence by sentence, when a sentence names exactly one step ('Step 2 (...) is run in R-101').
Roles come from the role mentions (context patterns, role columns of a table, column headers);
a substance charged without a stated role gets its lexicon category's role. Step order comes from
the numbering (a document's Step N precedes Step N+1 when the corpus describes a Step N+1) and
from outputs that become inputs of a later step. Every relation cites the sentence(s) it came from.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from kb.stages.extract.mentions import Chunk, Mention
from kb.stages.extract.spans import sentence_spans

HAS_INPUT = "has_specified_input"
HAS_OUTPUT = "has_specified_output"
HAS_PARTICIPANT = "has_participant"
HAS_PART = "has_part"
PRECEDES = "precedes"

_STEP_IN_TEXT = re.compile(r"\b(?:[Ss]tep|[Ss]tage)\s+(\d{1,2})[a-z]?\b|\bS(\d{1,2})\b")
_CHARGING = re.compile(r"\b(?:charged|added|introduced|dissolved|suspended|treated|reacted|used|employed|run in|slurried|diluted|mixed)\b", re.IGNORECASE)
CATEGORY_ROLES = {"solvent": "solvent", "base": "base", "catalyst": "catalyst", "ligand": "catalyst"}
# 'the reactor' refers back to some reactor; only a named, sized or tagged one is a participant
GENERIC_EQUIPMENT = {"reactor", "vessel", "column", "flask", "filter", "dryer", "condenser", "autoclave"}
# verbs that show a unit operation without naming it as a noun ('the cake was washed')
UNIT_OPERATION_VERBS: dict[str, str] = {
    r"\bquench(?:ed|ing)\b": "quench",
    r"\bfiltered\b": "filtration",
    r"\bextracted\b": "liquid-liquid extraction",
    r"\bdistill?ed\b": "distillation",
    r"\b(?:re)?crystalli[sz]ed\b": "crystallisation",
    r"\bdried\s+(?:under\s+vacuum|in\s+vacuo|under\s+reduced\s+pressure)\b": "vacuum drying",
}


@dataclass(frozen=True, order=True)
class Relation:
    """One step relation: `obj` is the object's verbatim text (a step label for 'precedes')."""

    document: str
    step: str
    predicate: str
    obj: str
    role: str
    evidence: tuple[tuple[str, int, int], ...]
    object_kind: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "document": self.document,
            "step": self.step,
            "predicate": self.predicate,
            "object": self.obj,
            "object_kind": self.object_kind,
            "role": self.role,
            "evidence": [{"chunk": c, "start": s, "end": e} for c, s, e in self.evidence],
        }


def relations_json(relations: Iterable[Relation]) -> str:
    return json.dumps([r.to_json() for r in sorted(relations)], indent=1, sort_keys=True, ensure_ascii=False)


def _step_of(text: str) -> str | None:
    numbers = {m.group(1) or m.group(2) for m in _STEP_IN_TEXT.finditer(text)}
    return f"Step {numbers.pop()}" if len(numbers) == 1 else None


def _row_roles(chunk: Chunk, mentions: list[Mention]) -> dict[tuple[int, int], str]:
    """In a table, a role word in the same row as a substance gives that substance's role."""
    if chunk.kind != "table":
        return {}
    line_starts = [0] + [i + 1 for i, ch in enumerate(chunk.text) if ch == "\n"]

    def row_of(offset: int) -> int:
        return sum(1 for s in line_starts if s <= offset) - 1

    role_words = {row_of(m.start): m.attr("role") for m in mentions if m.kind == "role" and m.rule == "lexicon.role"}
    return {(m.start, m.end): role_words[row_of(m.start)] for m in mentions if m.kind == "substance" and row_of(m.start) in role_words}


def _default_role(m: Mention, sentence: str, offset: int, charging: bool) -> str:
    """A lexicon substance charged without a stated role plays its category's role; a gas blanket none.

    'water content(s)' measures the substance in something else, so it is no charge either.
    """
    category = m.attr("category")
    if not (charging and category) or category == "gas":
        return ""
    if re.match(r"\s+(?:contents?|levels?)\b", sentence[m.end - offset :], re.IGNORECASE):
        return ""
    if re.search(r"\bunder\s+(?:an?\s+)?(?:atmosphere\s+of\s+)?$", sentence[: m.start - offset], re.IGNORECASE):
        return ""
    return CATEGORY_ROLES.get(category, "reagent")


def extract_relations(chunks: Iterable[Chunk], mentions: dict[str, list[Mention]]) -> list[Relation]:
    """Step relations for every document, from chunks in reading order and their mentions."""
    facts: dict[tuple[str, str, str, str, str], set[tuple[str, int, int]]] = defaultdict(set)
    kinds: dict[tuple[str, str, str, str, str], str] = {}
    outputs_by_doc: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    inputs_by_doc: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for chunk in chunks:
        found = mentions.get(chunk.iri, [])
        section_step = _step_of(chunk.section.split(" > ")[0]) if chunk.section else None
        section_step = section_step or (_step_of(chunk.section) if chunk.section else None)
        table_roles = _row_roles(chunk, found)
        spans = [(0, len(chunk.text))] if chunk.kind == "table" else sentence_spans(chunk.text)
        document = chunk.document or chunk.iri.split("/chunk/")[0]
        for start, end in spans:
            sentence = chunk.text[start:end]
            step = section_step or _step_of(sentence)
            if step is None:
                continue
            evidence = (chunk.iri, start, end)
            here = [m for m in found if start <= m.start < end]
            roles = {
                (m.start, m.end): m.attr("role")
                for m in here
                if m.kind == "role" and m.rule not in {"lexicon.role", "role.table_header"}
            }
            roles.update(table_roles)
            charging = bool(_CHARGING.search(sentence))

            here_facts: list[tuple[str, str, str, str]] = []
            for m in here:
                if m.kind == "substance":
                    role = roles.get((m.start, m.end)) or _default_role(m, sentence, start, charging)
                    if role == "starting material" and step != "Step 1":
                        role = "intermediate"
                    if role == "product":
                        here_facts.append((HAS_OUTPUT, m.text, "", "substance"))
                        outputs_by_doc[document][step].add(m.text)
                    elif role:
                        here_facts.append((HAS_INPUT, m.text, role, "substance"))
                        inputs_by_doc[document][step].add(m.text)
                elif m.kind == "equipment" and m.text.lower() not in GENERIC_EQUIPMENT:
                    here_facts.append((HAS_PARTICIPANT, m.text, "", "equipment"))
                elif m.kind == "unit_operation":
                    here_facts.append((HAS_PART, m.text, "", "unit_operation"))
            for pattern, name in UNIT_OPERATION_VERBS.items():
                if re.search(pattern, sentence, re.IGNORECASE):
                    here_facts.append((HAS_PART, name, "", "unit_operation"))
            for predicate, obj, role, kind in here_facts:
                key = (document, step, predicate, obj, role)
                facts[key].add(evidence)
                kinds[key] = kind
    relations = [Relation(k[0], k[1], k[2], k[3], k[4], tuple(sorted(v)), kinds[k]) for k, v in facts.items()]
    relations += _order(relations, outputs_by_doc, inputs_by_doc)
    return sorted(relations)


def _order(
    relations: list[Relation],
    outputs: dict[str, dict[str, set[str]]],
    inputs: dict[str, dict[str, set[str]]],
) -> list[Relation]:
    """'precedes' from consecutive step numbers and from output-becomes-input chains."""
    steps_by_doc: dict[str, set[str]] = defaultdict(set)
    for r in relations:
        steps_by_doc[r.document].add(r.step)
    known = {int(s.split()[1]) for steps in steps_by_doc.values() for s in steps}
    out: dict[tuple[str, str, str], tuple[tuple[str, int, int], ...]] = {}
    for document, steps in steps_by_doc.items():
        for a in sorted(int(s.split()[1]) for s in steps):
            if a + 1 in known:
                out[(document, f"Step {a}", f"Step {a + 1}")] = ()
        for a in steps:
            for b in steps:
                if a != b and outputs[document][a] & inputs[document][b]:
                    out.setdefault((document, a, b), ())
    return [Relation(d, a, PRECEDES, b, "", (), "planned_process") for (d, a, b) in sorted(out)]
