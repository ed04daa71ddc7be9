"""Entity linking from question text to canonical individuals of the domain layer.

Exact label matches first (preferred and alternative labels, case-insensitive, whole words,
longest first; a label's leading stereodescriptor is optional: '(E)-X oxime' also links as
'X oxime'), then parent names of derivatives, then fuzzy matches (rapidfuzz) above a threshold.
A surface form that fits several individuals of the same kind is reported as ambiguous, never
guessed.

A parent name is the carbonyl compound a condensation derivative is named after: the graph may
know '(E)-X oxime' but name X itself only by a code ('aldehyde 10'). A question naming X then
links to the substrate of the step that makes the derivative (its input with a starting-material
or intermediate role), so 'How does X connect to ...' starts where the route does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from kb import vocab as V
from kb.stages.parse.metadata import REPORT_ID, VERSION
from kb.store import GraphStore

KIND_OF_TYPE = {
    V.OBO + "CHEBI_24431": "substance",
    V.OBO + "PROCO_0000031": "substance",
    V.OBO + "OBI_0000011": "process",
    V.OBO + "PROCO_0000051": "unit_operation",
    V.OBO + "OBI_0000968": "equipment",
}
ROLE_WORDS = {
    "solvent": V.OBO + "CHEBI_46787",
    "catalyst": V.OBO + "CHEBI_35223",
    "reagent": V.OBO + "CHEBI_33893",
    "base": V.OBO + "CHEBI_22695",
    "starting material": V.OBO + "PROCO_0000029",
    "intermediate": V.OBO + "PROCO_0000030",
    "antisolvent": V.OBO + "PROCO_0000064",
}
CONDITION_WORDS = {
    "temperature": "temperature",
    "temp": "temperature",
    "time": "time",
    "duration": "time",
    "how long": "time",
    "equivalents": "equivalents",
    "equiv": "equivalents",
    "volume": "volume",
    "concentration": "concentration",
    "ph": "pH",
    "pressure": "pressure",
    "yield": "yield",
    "purity": "purity",
}
LABELS = V.sparql_prefixes() + """
SELECT ?entity ?label ?type ?preferred WHERE {
  GRAPH <urn:kb:graph:domain> {
    ?entity skos:prefLabel ?preferred ; a ?type .
    { ?entity skos:prefLabel ?label } UNION { ?entity skos:altLabel ?label }
  }
}"""
# what each step's substrate (input with the starting material or intermediate role) is made into
SUBSTRATES = V.sparql_prefixes() + """
SELECT DISTINCT ?product ?substrate WHERE {
  GRAPH <urn:kb:graph:domain> {
    ?step obo:OBI_0000299 ?product ; obo:OBI_0000293 ?substrate .
    ?substrate obo:RO_0000087 ?role .
    ?role obo:BFO_0000054 ?step ; a obo:BFO_0000023 .
  }
}"""
# a leading stereodescriptor: (E)-, (Z)-, (R)-, (S)-, (R,S)-, (±)-, rac-, cis-, trans-
STEREO_PREFIX = re.compile(r"^(?:\((?:[EZRS](?:,\s*[EZRS])*|\u00b1|[+-]|rac)\)-|(?:rac|cis|trans)-)", re.IGNORECASE)
# functional class names of condensation derivatives: 'X oxime' is the oxime of the carbonyl compound X
DERIVATIVE_WORDS = ("oxime", "hydrazone", "semicarbazone")
MIN_PARENT_NAME = 8


def without_stereo(label: str) -> str:
    return STEREO_PREFIX.sub("", label, count=1)


def derivative_word(label: str) -> str:
    """'(E)-X oxime' -> 'oxime'."""
    return label.rsplit(" ", 1)[-1].lower()


def parent_name(label: str) -> str | None:
    """'(E)-5-bromo-2-fluoronicotinaldehyde oxime' -> '5-bromo-2-fluoronicotinaldehyde'."""
    head, _, last = without_stereo(label).rpartition(" ")
    if last.lower() in DERIVATIVE_WORDS and len(head) >= MIN_PARENT_NAME and not head.isdigit():
        return head
    return None


@dataclass(frozen=True)
class Link:
    surface: str
    start: int
    end: int
    entity: str
    label: str
    kind: str
    score: float
    candidates: tuple[str, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


@dataclass
class LinkedQuestion:
    """Everything the agents need from a question's text, besides its wording."""

    question: str
    entities: list[Link] = field(default_factory=list)
    series: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    forms: dict[str, list[str]] = field(default_factory=dict)

    def of_kind(self, kind: str) -> list[Link]:
        return [link for link in self.entities if link.kind == kind and not link.ambiguous]

    def ambiguous(self) -> list[Link]:
        return [link for link in self.entities if link.ambiguous]


@dataclass(frozen=True)
class LabelEntry:
    entity: str
    label: str
    kind: str
    preferred: str


class EntityLinker:
    """Label index of the domain layer, built once per store state."""

    def __init__(self, entries: list[LabelEntry], *, fuzzy_threshold: float = 92.0, substrates: dict[str, set[str]] | None = None) -> None:
        self.fuzzy_threshold = fuzzy_threshold
        self.by_label: dict[str, dict[str, LabelEntry]] = {}
        self.forms: dict[str, list[str]] = {}
        by_entity: dict[str, LabelEntry] = {}
        for entry in entries:
            self.by_label.setdefault(entry.label.lower(), {})[entry.entity] = entry
            self.forms.setdefault(entry.entity, []).append(entry.label)
            by_entity.setdefault(entry.entity, entry)
        for entry in entries:
            bare = without_stereo(entry.label).lower()
            if bare != entry.label.lower() and len(bare) >= MIN_PARENT_NAME:
                self.by_label.setdefault(bare, {}).setdefault(entry.entity, entry)
        self.labels = sorted(self.by_label, key=lambda s: (-len(s), s))
        self.patterns = [(label, self.pattern(label)) for label in self.labels if label and not label.isdigit()]
        # parent names of derivatives, each to the substrate(s) of the step(s) that make the derivative
        self.parents: dict[str, dict[str, LabelEntry]] = {}
        substrates = substrates or {}
        for derivative, labels in sorted(self.forms.items()):
            for label in labels:
                name = parent_name(label)
                if name is None or name.lower() in self.by_label:
                    continue
                makers = {derivative} if derivative in substrates else self.products_named(derivative_word(label), substrates)
                for substrate in sorted({s for maker in makers for s in substrates[maker]}):
                    if substrate in by_entity:
                        entry = by_entity[substrate]
                        self.parents.setdefault(name.lower(), {})[substrate] = LabelEntry(substrate, name, entry.kind, entry.preferred)
        self.parent_patterns = [(name, self.pattern(name)) for name in sorted(self.parents, key=lambda s: (-len(s), s))]

    def products_named(self, word: str, substrates: dict[str, set[str]]) -> set[str]:
        """Step products with a label naming the derivative class ('Oxime 9'): where resolution
        kept the named derivative apart from the step's product, the class word still ties them."""
        return {product for product in substrates if any(word in label.lower().split() for label in self.forms.get(product, []))}

    @staticmethod
    def pattern(label: str) -> re.Pattern[str]:
        return re.compile(r"(?<![\w-])" + re.escape(label) + r"(?![\w-])", re.IGNORECASE)

    @classmethod
    def from_store(cls, store: GraphStore) -> EntityLinker:
        entries = []
        for row in store.query(LABELS):
            kind = KIND_OF_TYPE.get(row["type"].value)
            if kind:
                entries.append(LabelEntry(row["entity"].value, row["label"].value, kind, row["preferred"].value))
        substrates: dict[str, set[str]] = {}
        for row in store.query(SUBSTRATES):
            substrates.setdefault(row["product"].value, set()).add(row["substrate"].value)
        return cls(sorted(set(entries), key=lambda e: (e.label, e.entity)), substrates=substrates)

    def link(self, question: str) -> LinkedQuestion:
        linked = LinkedQuestion(question=question)
        taken: list[tuple[int, int]] = []
        exact = [(pattern, self.by_label[label], 100.0) for label, pattern in self.patterns]
        parents = [(pattern, self.parents[name], 95.0) for name, pattern in self.parent_patterns]
        for pattern, candidates, score in exact + parents:
            for found in pattern.finditer(question):
                span = (found.start(), found.end())
                if any(s < span[1] and span[0] < e for s, e in taken):
                    continue
                taken.append(span)
                linked.entities.append(self.make_link(found.group(0), span, candidates, score))
        linked.entities.extend(self.fuzzy(question, taken))
        linked.entities.sort(key=lambda link: link.start)
        linked.forms = {link.entity: sorted(set(self.forms.get(link.entity, [link.label]))) for link in linked.entities if not link.ambiguous}
        linked.series = list(dict.fromkeys(REPORT_ID.findall(question)))
        linked.versions = list(dict.fromkeys(VERSION.findall(question)))
        lowered = question.lower()
        linked.roles = [iri for word, iri in ROLE_WORDS.items() if re.search(rf"\b{word}s?\b", lowered)]
        linked.conditions = sorted({kind for word, kind in CONDITION_WORDS.items() if re.search(rf"\b{word}s?\b", lowered)})
        return linked

    def make_link(self, surface: str, span: tuple[int, int], entries: dict[str, LabelEntry], score: float) -> Link:
        ordered = sorted(entries.values(), key=lambda e: e.entity)
        first = ordered[0]
        same_kind = [e for e in ordered if e.kind == first.kind]
        return Link(surface, span[0], span[1], first.entity, first.preferred, first.kind, score,
                    tuple(e.entity for e in same_kind) if len(same_kind) > 1 else ())

    def fuzzy(self, question: str, taken: list[tuple[int, int]]) -> list[Link]:
        """Word n-grams not covered by exact matches, matched to labels above the threshold."""
        words = list(re.finditer(r"[\w][\w\-,()'.]*[\w)]|\w", question))
        links: list[Link] = []
        for size in (4, 3, 2, 1):
            for i in range(len(words) - size + 1):
                start, end = words[i].start(), words[i + size - 1].end()
                if any(s < end and start < e for s, e in taken) or end - start < 5:
                    continue
                best = process.extractOne(question[start:end].lower(), self.labels, scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold)
                if best is None:
                    continue
                taken.append((start, end))
                links.append(self.make_link(question[start:end], (start, end), self.by_label[best[0]], float(best[1])))
        return links
