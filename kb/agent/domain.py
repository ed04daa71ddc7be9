"""Domain agent: choose a SPARQL template, fill its parameters from the linked question, run it,
then drop down through the mention anchors to the passages that support every returned item."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pyoxigraph import NamedNode
from rapidfuzz import fuzz

from kb import vocab as V
from kb.agent.answer import Answer, AnswerItem, Tracer
from kb.agent.citations import CitationBuilder
from kb.agent.linking import LinkedQuestion
from kb.agent.llm import LLMChain
from kb.queries import Template, TemplateRegistry, run_template
from kb.store import GraphStore

EVIDENCE = V.sparql_prefixes() + """
SELECT DISTINCT ?mention ?item ?object WHERE {
  GRAPH <urn:kb:graph:domain> {
    { ?st rdf:subject ?item ; rdf:object ?object ; prov:wasDerivedFrom ?mention . }
    UNION { ?item prov:wasDerivedFrom ?mention . BIND(?item AS ?object) }
  }
}"""
OWN_MENTIONS = V.sparql_prefixes() + """
SELECT DISTINCT ?mention ?item WHERE { GRAPH ?anchors { ?mention oa:hasBody ?item . } }"""
ENTITY_KIND_ALIASES = {"substance": "substance", "process": "process", "unit_operation": "unit_operation", "equipment": "equipment"}
MAX_CITATIONS_PER_ITEM = 3


@dataclass
class Plan:
    template: Template
    values: dict[str, Any]
    score: float
    why: str


def fill_parameters(template: Template, linked: LinkedQuestion) -> dict[str, Any] | None:
    """Values for every parameter from the question, or None when one cannot be filled."""
    values: dict[str, Any] = {}
    used: dict[str, int] = {}
    strings = {"series": list(linked.series), "version": list(linked.versions), "kind": list(linked.conditions)}
    for name, kind in template.params.items():
        if kind == "entity":
            wanted = ENTITY_KIND_ALIASES.get(template.entity_types.get(name, "substance"), "substance")
            pool = linked.of_kind(wanted)
            index = used.get(wanted, 0)
            if index >= len(pool):
                return None
            values[name] = pool[index].entity
            used[wanted] = index + 1
        elif kind == "iri":
            if not linked.roles:
                return None
            values[name] = linked.roles[0]
        elif kind == "string":
            key = "series" if "series" in name else "version" if "version" in name else "kind" if name == "kind" else name
            pool = strings.get(key, [])
            if not pool:
                return None
            values[name] = pool.pop(0)
        else:
            return None
    return values


def example_similarity(question: str, template: Template) -> float:
    return max((fuzz.token_set_ratio(question.lower(), e.lower()) for e in template.examples), default=0.0)


def plan_query(question: str, linked: LinkedQuestion, templates: list[Template], question_class: str, llm: LLMChain) -> tuple[Plan | None, list[Plan]]:
    """Rank the templates whose parameters can be filled, by example similarity.

    When the router named a question class, only that class's templates compete: answering an
    overlap question with a single-substance list would be a wrong answer, not a partial one.
    """
    plans = []
    if any(t.question_class == question_class for t in templates):
        templates = [t for t in templates if t.question_class == question_class]
    for template in templates:
        values = fill_parameters(template, linked)
        if values is None:
            continue
        similarity = example_similarity(question, template)
        score = similarity + 10.0 * len(template.params)
        plans.append(Plan(template, values, score, f"class {template.question_class or 'any'}, example similarity {similarity:.0f}"))
    plans.sort(key=lambda p: (-p.score, p.template.name))
    if not plans:
        return None, plans
    if llm.enabled and len(plans) > 1 and plans[0].score - plans[1].score < 15:
        names = [p.template.name for p in plans[:5]]
        choice, _ = llm.choose(f"Which query answers: {question}", names)
        if choice:
            return next(p for p in plans if p.template.name == choice), plans
    return plans[0], plans


NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
TOP_K = re.compile(r"\b(?:top|which|what|the|list)\s+(\d+|" + "|".join(NUMBER_WORDS) + r")\b(?!\s*(?:°|%|h\b|vol|equiv))", re.IGNORECASE)


def top_k(question: str) -> int | None:
    """'Which three solvents ...', 'top 5 ...': how many items the question asks for, if it says."""
    found = TOP_K.search(question)
    if not found:
        return None
    word = found.group(1).lower()
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def rows_of_first_items(rows: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """The rows of the first k distinct items, in the template's order (ranked templates rank first)."""
    kept: list[str] = []
    out = []
    for row in rows:
        key = row["item"].value if row.get("item") is not None else label(row)
        if key not in kept:
            if len(kept) == k:
                continue
            kept.append(key)
        out.append(row)
    return out


def label(row: dict[str, Any]) -> str:
    for key in ("itemLabel", "label"):
        if row.get(key) is not None:
            return str(row[key].value)
    item = row.get("item")
    return str(item.value) if item is not None else ""


class DomainAgent:
    def __init__(self, store: GraphStore, registry: TemplateRegistry, llm: LLMChain) -> None:
        self.store = store
        self.registry = registry
        self.llm = llm

    def answer(self, question: str, linked: LinkedQuestion, question_class: str, tracer: Tracer) -> Answer:
        plan, plans = plan_query(question, linked, self.registry.all("template"), question_class, self.llm)
        tracer.add("domain.plan", candidates=[(p.template.name, round(p.score, 1)) for p in plans[:5]],
                   linked=[(l.surface, l.label, l.kind) for l in linked.entities], ambiguous=[l.surface for l in linked.ambiguous()])
        if plan is None:
            why = "the question names no entity, series or version the templates need"
            if linked.ambiguous():
                why = f"'{linked.ambiguous()[0].surface}' matches several entities"
            return Answer(question, "domain", f"No query template fits this question: {why}.", found_evidence=False)
        rows = run_template(self.store, plan.template, plan.values)
        tracer.add("domain.run", template=plan.template.name, params=plan.values, why=plan.why, sparql=plan.template.sparql, rows=len(rows))
        wanted = top_k(question) if plan.template.question_class == "counting" else None
        if wanted is not None:
            rows = rows_of_first_items(rows, wanted)
            tracer.add("domain.top_k", k=wanted, why="the question asks for a number of items")
        items = self.items(rows, plan)
        tracer.add("domain.evidence", items=len(items), cited=sum(1 for i in items if i.citations))
        if not items:
            return Answer(question, "domain", f"The knowledge graph has no result for {plan.template.summary.lower()} with these parameters.", found_evidence=False)
        return Answer(question, "domain", self.summarise(plan, items), items=items)

    def items(self, rows: list[dict[str, Any]], plan: Plan) -> list[AnswerItem]:
        """One item per distinct ?item, cited through relation provenance or the item's own mentions."""
        builder = CitationBuilder(self.store)
        params = {str(v) for v in plan.values.values()}
        grouped: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            item = row.get("item")
            key = item.value if item is not None else label(row)
            grouped.setdefault(key, []).append(row)
        out = []
        for key, group in grouped.items():
            text = self.describe(group, plan)
            item = AnswerItem(text=text, entity=key)
            own = builder.cite_mention(key) if key.startswith(("http://", "https://")) else None
            if own is not None:
                item.citations.append(own)
            for mention in self.evidence(key, params | {key}):
                citation = builder.cite_mention(mention)
                if citation and citation not in item.citations:
                    item.citations.append(citation)
                if len(item.citations) >= MAX_CITATIONS_PER_ITEM:
                    break
            out.append(item)
        return out

    def evidence(self, item: str, params: set[str]) -> list[str]:
        """Mentions behind the relations between the item and the question's entities, else its own."""
        if not item.startswith(("http://", "https://", "urn:")):
            return []
        node = NamedNode(item)
        related = sorted(
            r["mention"].value for r in self.store.query(EVIDENCE, bindings={"item": node}) if r["object"].value in params
        )
        own = sorted(r["mention"].value for r in self.store.query(OWN_MENTIONS, bindings={"item": node}))
        return related + [m for m in own if m not in related]

    @staticmethod
    def describe(group: list[dict[str, Any]], plan: Plan) -> str:
        row = group[0]
        extra = [f"{k}={row[k].value}" for k in ("documents", "count", "value", "unit", "old", "new", "version", "roleLabel", "kind", "quote")
                 if row.get(k) is not None and k not in plan.values]
        return label(row) + (f" ({', '.join(extra)})" if extra else "")

    @staticmethod
    def summarise(plan: Plan, items: list[AnswerItem]) -> str:
        names = "; ".join(i.text for i in items[:25])
        more = f" and {len(items) - 25} more" if len(items) > 25 else ""
        return f"{plan.template.summary}: {names}{more}."
