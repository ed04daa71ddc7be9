"""The domain layer in RDF: canonical individuals, relations with reification, roles, conditions.

Encoding (docs/model.md, docs/resolution.md): every relation is asserted directly between
individuals, so the reasoner and plain SPARQL see it, and has one classic reification node
`id:assertion/<hash>` (rdf:Statement) carrying `prov:wasDerivedFrom` every supporting mention and
`dcterms:source` every document version that states it. Classic reification is read by rdflib 7,
Protégé and pySHACL. Each mention is linked to what it names with `oa:hasBody`. Relations come
from the step a chunk describes (kb/resolve/context.py): a role assignment gives an input (or, for
the product role, an output) and a role individual; equipment is a participant, a unit operation
part of the step; output-becomes-input chains and step numbers give `precedes`. A condition is a
node per (step, document version, kind, value, unit), so a changed value exists once per version.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode, Quad

from kb import vocab
from kb.iris import short_hash, slug
from kb.resolve import context
from kb.resolve.category import CATEGORIES
from kb.resolve.inputs import ROLE_CLASSES, Corpus, LocalMention
from kb.resolve.naming import preferred_label
from kb.resolve.rules import SCOPED_KINDS, Resolution, exact_key
from kb.resolve.synonyms import SynonymTable, default_table
from kb.stages.extract.mentions import KIND_CLASSES

XSD_DECIMAL = NamedNode(vocab.XSD + "decimal")
KIND_SEGMENTS = {k: k.replace("_", "-") for k in CATEGORIES}
# PROCO's starting material and intermediate are material classes (subclasses of chemical entity),
# not roles: a role individual for them is typed with BFO's role and named by its label
MATERIAL_ROLE_CLASSES = {vocab.STARTING_MATERIAL_ROLE.value, vocab.INTERMEDIATE_ROLE.value}
# role assignments that come from a table column header alone (kb.stages.extract.relations ignores them too)
COLUMN_ROLE_RULES = {"role.table_header"}


@dataclass
class Entity:
    iri: str
    kind: str
    key: str
    label: str
    alt: list[str]
    members: list[str]


@dataclass
class Condition:
    iri: str
    step: str
    document: str
    kind: str
    value: str
    unit: str
    verbatim: str
    mentions: list[str]


@dataclass
class DomainLayer:
    """Everything the domain graph holds, before it becomes quads."""

    base: str = ""
    entities: dict[str, Entity] = field(default_factory=dict)
    role_individuals: dict[str, tuple[str, str]] = field(default_factory=dict)  # iri -> (role class, label)
    body: dict[str, str] = field(default_factory=dict)  # mention iri -> what it names
    relations: dict[tuple[str, str, str], tuple[set[str], set[str]]] = field(default_factory=dict)
    conditions: dict[str, Condition] = field(default_factory=dict)
    role_clusters: int = 0

    def relate(self, s: str, p: str, o: str, mentions: list[str], documents: list[str]) -> None:
        ms, ds = self.relations.setdefault((s, p, o), (set(), set()))
        ms.update(mentions)
        ds.update(documents)

    def anchoring(self) -> dict[str, int]:
        """Direct anchors (a mention names it), one hop from an anchored node, unanchored."""
        anchored = set(self.body.values())
        nodes = set(self.entities) | set(self.role_individuals)
        neighbours: dict[str, set[str]] = defaultdict(set)
        for s, _, o in self.relations:
            neighbours[s].add(o)
            neighbours[o].add(s)
        direct = {n for n in nodes if n in anchored}
        hop = {n for n in nodes - direct if neighbours[n] & anchored}
        return {"anchored": len(direct), "one_hop": len(hop), "unanchored": len(nodes - direct - hop), "total": len(nodes)}


def _entity_key(members: list[LocalMention], scope: str, table: SynonymTable) -> tuple[str, str]:
    """(stable key, readable part): synonym group, step or compound number in scope, else smallest name."""
    scoped = members[0].kind in SCOPED_KINDS
    groups = sorted(e.key for e in (table.lookup(m.kind, m.text) for m in members) if e)
    if groups:
        return (f"{scope}|{groups[0]}" if scoped else groups[0]), groups[0].split(":", 1)[1]
    steps = sorted(context.step_number(m.text) for m in members if m.kind == "planned_process" and context.step_number(m.text))
    if steps:
        return f"step:{scope}:{steps[0]}", f"step {steps[0]}"
    numbers = sorted(filter(None, (context.compound_number(m) for m in members)))
    if numbers:
        return f"compound:{scope}:{numbers[0]}", f"compound {numbers[0]}"
    names = sorted(exact_key(m).split(":", 1)[1] for m in members)
    return (f"name:{scope}:{names[0]}" if scoped else f"name:{names[0]}"), names[0]


def _iri(base: str, segment: str, readable: str, key: str) -> str:
    return f"{base}{segment}/{slug(readable).rsplit('-', 1)[0]}-{short_hash(key, 10)}"


def build_domain(corpus: Corpus, resolution: Resolution, base: str, *, table: SynonymTable | None = None) -> DomainLayer:
    """Canonical individuals of every cluster, plus relations, roles and conditions from step context."""
    table = table or default_table()
    layer = DomainLayer(base=base)
    entity_of: dict[str, str] = {}
    step_entity: dict[tuple[str, str], str] = {}
    role_words: list[LocalMention] = []
    for cluster in resolution.clusters:
        members = [resolution.mentions[i] for i in cluster]
        own = [m for m in members if m.iri not in resolution.promoted]
        if own and own[0].kind == "role":
            layer.role_clusters += 1
            role_words.extend(own)
            continue
        kind = own[0].kind if own else "substance"
        scope = resolution.scopes.get(corpus.document_of(members[0]), "")
        key, readable = _entity_key(own or members, scope, table)
        label, alt = preferred_label([m for m in members if m.iri not in resolution.promoted] or members)
        iri = _iri(base, "entity/" + KIND_SEGMENTS[kind], readable, key)
        if iri in layer.entities:  # two clusters the guards kept apart share a name key
            key = f"{key}|{cluster[0]}"
            iri = _iri(base, "entity/" + KIND_SEGMENTS[kind], readable, key)
        layer.entities[iri] = Entity(iri, kind, key, label, alt, cluster)
        for m in members:
            entity_of[m.iri] = iri
            layer.body[m.iri] = iri
            number = context.step_number(m.text) if m.kind == "planned_process" else ""
            if number:
                step_entity.setdefault((scope, number), iri)
    _relations(corpus, resolution, base, layer, entity_of, step_entity)
    _role_words(corpus, resolution, layer, role_words)
    return layer


def _step_of(corpus: Corpus, resolution: Resolution, base: str, layer: DomainLayer, step_entity: dict[tuple[str, str], str], m: LocalMention) -> str:
    """The step individual a mention's chunk describes; a step named only by headings is minted here."""
    number = resolution.steps.get(m.chunk, "")
    if not number:
        return ""
    scope = resolution.scopes.get(corpus.document_of(m), "")
    if (scope, number) not in step_entity:
        key = f"step:{scope}:{number}"
        iri = _iri(base, "entity/planned-process", f"step {number}", key)
        layer.entities[iri] = Entity(iri, "planned_process", key, f"Step {number}", [], [])
        step_entity[(scope, number)] = iri
    return step_entity[(scope, number)]


def _relations(corpus: Corpus, resolution: Resolution, base: str, layer: DomainLayer, entity_of: dict[str, str], step_entity: dict[tuple[str, str], str]) -> None:
    at_span = {(m.chunk, m.start, m.end): m.iri for m in resolution.mentions.values() if m.kind == "substance"}
    inputs: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    outputs: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    index = {m.iri: m for m in corpus.mentions}
    for m in corpus.mentions:
        doc = corpus.document_of(m)
        if m.kind not in {"role_assignment", "equipment", "unit_operation", "condition"}:
            continue
        step = _step_of(corpus, resolution, base, layer, step_entity, m)
        if not step:
            continue
        if m.kind == "role_assignment":
            if m.rule in COLUMN_ROLE_RULES:
                # a column header names what a table compares ('Solvent' over a solvent screen), not
                # what the step charges: as in the extractor's step relations, no role and no input
                layer.body[m.iri] = ROLE_CLASSES[m.role]
                continue
            substance_mention = at_span.get((m.chunk, m.start, m.end))
            if substance_mention is None:
                continue
            substance = entity_of[substance_mention]
            role_iri = f"{base}role/{step.rsplit('/', 1)[1]}/{substance.rsplit('/', 1)[1]}/{m.role.replace(' ', '-')}"
            label = f"{layer.entities[substance].label} as {m.role} in {layer.entities[step].label}"
            layer.role_individuals[role_iri] = (ROLE_CLASSES[m.role], label)
            layer.body[m.iri] = role_iri
            evidence = [m.iri, substance_mention]
            layer.relate(substance, vocab.HAS_ROLE.value, role_iri, evidence, [doc])
            layer.relate(role_iri, vocab.REALIZED_IN.value, step, evidence, [doc])
            if m.role == "product":
                layer.relate(step, vocab.HAS_SPECIFIED_OUTPUT.value, substance, evidence, [doc])
                outputs[substance][step].append(m.iri)
            else:
                layer.relate(step, vocab.HAS_SPECIFIED_INPUT.value, substance, evidence, [doc])
                inputs[substance][step].append(m.iri)
        elif m.kind == "equipment" and m.iri in entity_of:
            layer.relate(step, vocab.HAS_PARTICIPANT.value, entity_of[m.iri], [m.iri], [doc])
        elif m.kind == "unit_operation" and m.iri in entity_of:
            layer.relate(entity_of[m.iri], vocab.PART_OF.value, step, [m.iri], [doc])
        elif m.kind == "condition" and m.condition_kind:
            _condition(layer, base, step, doc, m)
    _numbered_order(corpus, resolution, layer, step_entity)
    for substance in sorted(outputs):
        for before in sorted(outputs[substance]):
            for after in sorted(inputs.get(substance, {})):
                if after != before:
                    evidence = outputs[substance][before] + inputs[substance][after]
                    docs = sorted({corpus.document_of(index[e]) for e in evidence})
                    layer.relate(before, vocab.PRECEDES.value, after, evidence, docs)


def _numbered_order(corpus: Corpus, resolution: Resolution, layer: DomainLayer, step_entity: dict[tuple[str, str], str]) -> None:
    """Step N precedes step N+1 of the same programme when one document names both (first mention of each)."""
    first: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for m in sorted(resolution.mentions.values()):
        number = context.step_number(m.text) if m.kind == "planned_process" else ""
        if number.isdigit():
            first[(corpus.document_of(m), resolution.scopes.get(corpus.document_of(m), ""))].setdefault(number, m.iri)
    for (doc, scope), numbers in sorted(first.items()):
        for number, mention in sorted(numbers.items()):
            after = str(int(number) + 1)
            if after in numbers and (scope, number) in step_entity and (scope, after) in step_entity:
                layer.relate(step_entity[(scope, number)], vocab.PRECEDES.value, step_entity[(scope, after)], [mention, numbers[after]], [doc])


def _condition(layer: DomainLayer, base: str, step: str, doc: str, m: LocalMention) -> None:
    key = (step, doc, m.condition_kind, m.value, m.unit)
    iri = f"{base}condition/{short_hash(repr(key))}"
    node = layer.conditions.get(iri)
    if node is None:
        layer.conditions[iri] = Condition(iri, step, doc, m.condition_kind, m.value, m.unit, m.text, [m.iri])
    else:
        node.mentions.append(m.iri)
        node.verbatim = min(node.verbatim, m.text)


def _role_words(corpus: Corpus, resolution: Resolution, layer: DomainLayer, role_words: list[LocalMention]) -> None:
    """A role word names the role individual of its step when exactly one fits, else the role class."""
    by_role: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for m in corpus.mentions:
        if m.kind == "role_assignment" and m.rule not in COLUMN_ROLE_RULES and m.iri in layer.body:
            by_role[(corpus.document_of(m), resolution.steps.get(m.chunk, ""), m.role)].add(layer.body[m.iri])
    for m in role_words:
        found = by_role.get((corpus.document_of(m), resolution.steps.get(m.chunk, ""), m.role), set())
        layer.body[m.iri] = next(iter(found)) if len(found) == 1 and resolution.steps.get(m.chunk) else ROLE_CLASSES[m.role]


def domain_quads(layer: DomainLayer, graph: str = vocab.GRAPH_DOMAIN) -> list[Quad]:
    """The domain graph's quads, sorted (no blank nodes)."""
    g = NamedNode(graph)
    out: list[Quad] = []

    def add(s: str, p: NamedNode, o: NamedNode | Literal) -> None:
        out.append(Quad(NamedNode(s), p, o, g))

    for iri, e in layer.entities.items():
        add(iri, vocab.TYPE, NamedNode(KIND_CLASSES[e.kind]))
        add(iri, vocab.TYPE, NamedNode(CATEGORIES[e.kind][1]))
        add(iri, vocab.PREF_LABEL, Literal(e.label))
        add(iri, vocab.LABEL, Literal(e.label))
        for alt in e.alt:
            add(iri, vocab.ALT_LABEL, Literal(alt))
    for iri, (cls, label) in layer.role_individuals.items():
        add(iri, vocab.TYPE, NamedNode(cls if cls not in MATERIAL_ROLE_CLASSES else vocab.ROLE_CLASS.value))
        add(iri, vocab.PREF_LABEL, Literal(label))
        add(iri, vocab.LABEL, Literal(label))
    for mention, body in layer.body.items():
        add(mention, vocab.OA_HAS_BODY, NamedNode(body))
    for (s, p, o), (mentions, documents) in layer.relations.items():
        add(s, NamedNode(p), NamedNode(o))
        node = f"{layer.base}assertion/{short_hash(f'{s} {p} {o}')}"
        add(node, vocab.TYPE, vocab.RDF_STATEMENT)
        add(node, vocab.RDF_SUBJECT, NamedNode(s))
        add(node, vocab.RDF_PREDICATE, NamedNode(p))
        add(node, vocab.RDF_OBJECT, NamedNode(o))
        for mention in mentions:
            add(node, vocab.WAS_DERIVED_FROM, NamedNode(mention))
        for document in documents:
            add(node, vocab.SOURCE, NamedNode(document))
    for iri, c in layer.conditions.items():
        add(iri, vocab.TYPE, vocab.CONDITION_CLASS)
        add(iri, vocab.CONDITION_KIND, Literal(c.kind))
        if c.value:
            add(iri, vocab.NUMERIC_VALUE, Literal(c.value, datatype=XSD_DECIMAL))
        if c.unit:
            add(iri, vocab.UNIT, Literal(c.unit))
        add(iri, vocab.VERBATIM, Literal(c.verbatim))
        add(iri, vocab.SOURCE, NamedNode(c.document))
        for mention in c.mentions:
            add(iri, vocab.WAS_DERIVED_FROM, NamedNode(mention))
        add(c.step, vocab.HAS_CONDITION, NamedNode(iri))
    return sorted(set(out), key=str)
