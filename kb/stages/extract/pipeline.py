"""The spaCy pipeline: spacy.blank('en') plus the project's own components.

Components, in order: `kb_sentences` (sentence spans that respect 'aq.' and 'equiv.'),
`kb_lexicon` (two PhraseMatchers over the curated lexicon: exact case for abbreviations and
formulas, lower case for names), `kb_shapes` (Matcher and regex rules for names the lexicon lacks,
steps, equipment, impurities, conditions), `kb_resolve` (one span per place, longest first) and
`kb_roles` (roles from context and table headers). Everything lands in `doc._.kb_candidates`.
No statistical model is involved, so the output depends only on the text and the lexicon.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import spacy
from spacy.language import Language
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokens import Doc

from kb.stages.extract import conditions, processes, roles, substances
from kb.stages.extract.lexicon import LexEntry, default_lexicon
from kb.stages.extract.mentions import (
    KIND_CLASSES,
    ROLE_CLASSES,
    Cell,
    Chunk,
    Mention,
    sort_mentions,
)
from kb.stages.extract.spans import ENTITY_LAYER, Candidate, resolve, sentence_spans

if not Doc.has_extension("kb_candidates"):
    Doc.set_extension("kb_candidates", default=None)
if not Doc.has_extension("kb_cells"):
    Doc.set_extension("kb_cells", default=None)
if not Doc.has_extension("kb_sentences"):
    Doc.set_extension("kb_sentences", default=None)

CellSpan = tuple[int, int, Cell]


def doc_text(doc: Doc) -> str:
    """The doc's text, built once (spaCy rebuilds `doc.text` from its tokens on every access)."""
    if "kb_text" not in doc.user_data:
        doc.user_data["kb_text"] = doc.text
    return doc.user_data["kb_text"]


@Language.component("kb_sentences")
def kb_sentences(doc: Doc) -> Doc:
    """Sentence boundaries for role context; table chunks use their cells as 'sentences'."""
    cells: list[CellSpan] | None = doc._.kb_cells
    spans = [(s, e) for s, e, _ in cells] if cells else sentence_spans(doc_text(doc))
    doc._.kb_sentences = spans
    return doc


@Language.factory("kb_lexicon")
def make_lexicon_matcher(nlp: Language, name: str) -> LexiconMatcher:
    return LexiconMatcher(nlp, default_lexicon())


_LOWER_HEAD = re.compile(r"^[a-z]{2,}\.?\s")


def _sentence_initial(forms: tuple[str, ...]) -> list[str]:
    """'Aq. HCl' for 'aq. HCl': a mixed-case form led by a lower-case word, capitalised as a sentence starts.

    All-lower-case forms already match in any case; a form led by a symbol or prefix ('n-BuLi',
    'mCPBA') is left alone, since capitalising it would name something else.
    """
    return [f[0].upper() + f[1:] for f in forms if f != f.lower() and _LOWER_HEAD.match(f)]


class LexiconMatcher:
    """Proposes every lexicon form found in the text, typed by its entry."""

    def __init__(self, nlp: Language, entries: Sequence[LexEntry]) -> None:
        self.entries = list(entries)
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.lower = PhraseMatcher(nlp.vocab, attr="LOWER")
        for index, entry in enumerate(self.entries):
            key = f"lex{index}"
            self.exact.add(key, [nlp.make_doc(f) for f in (*entry.forms, *_sentence_initial(entry.forms))])
            lower_forms = [f for f in entry.forms if f == f.lower() and len(f) >= 4]
            if lower_forms:
                self.lower.add(key, [nlp.make_doc(f) for f in lower_forms])

    def __call__(self, doc: Doc) -> Doc:
        found: set[tuple[int, int, int]] = set()
        for matcher in (self.exact, self.lower):
            for match_id, start, end in matcher(doc):
                index = int(doc.vocab.strings[match_id][3:])
                span = doc[start:end]
                found.add((span.start_char, span.end_char, index))
        candidates: list[Candidate] = doc._.kb_candidates or []
        for start, end, index in sorted(found):
            candidates.append(self._candidate(start, end, self.entries[index]))
        doc._.kb_candidates = candidates
        return doc

    @staticmethod
    def _candidate(start: int, end: int, entry: LexEntry) -> Candidate:
        if entry.kind == "role":
            return Candidate(start, end, "role", ROLE_CLASSES[entry.name], "lexicon.role", 3, attrs=(("role", entry.name),))
        attrs: list[tuple[str, str]] = [("canonical", entry.name), ("category", entry.category)]
        if entry.refined.startswith(("CHMO_", "PROCO_", "OBI_")):
            attrs.append(("refined", entry.refined))
        return Candidate(start, end, entry.kind, KIND_CLASSES[entry.kind], f"lexicon.{entry.kind}", 3, attrs=tuple(attrs))


@Language.factory("kb_shapes")
def make_shapes(nlp: Language, name: str) -> ShapeRules:
    return ShapeRules(nlp)


class ShapeRules:
    """Rules for what the lexicon cannot list: names, formulas, codes, steps, conditions."""

    def __init__(self, nlp: Language) -> None:
        self.matcher = Matcher(nlp.vocab)
        # 'compound 7' split over tokens the way the tokenizer splits '7a' and '12'
        self.matcher.add(
            "class_number",
            [[{"LOWER": {"IN": list(substances.CLASS_NOUNS)}}, {"SHAPE": {"IN": ["d", "dd", "ddd", "dx", "ddx", "dddx"]}}]],
        )

    def __call__(self, doc: Doc) -> Doc:
        text = doc_text(doc)
        candidates: list[Candidate] = doc._.kb_candidates or []
        for _, start, end in self.matcher(doc):
            span = doc[start:end]
            if end < len(doc) and doc[end].text in {"%", "°", "equiv", "h", "min", "mol", "mg", "g", "mL", "L"}:
                continue
            candidates.append(Candidate(span.start_char, span.end_char, "substance", substances.SUBSTANCE, "substance.class_number", 2))
        candidates += substances.formulas(text)
        candidates += substances.systematic_names(text)
        candidates += substances.labels(text)
        candidates += substances.trade_names(text)
        candidates += substances.codes(text, reserved=processes.EQUIPMENT_TAGS + ("IMP",))
        candidates += processes.steps(text)
        candidates += processes.impurities(text)
        candidates += conditions.conditions(text)
        candidates += substances.salt_extensions(text, candidates)
        candidates += processes.equipment(text, candidates)
        candidates += processes.process_suffixes(text, candidates)
        cells: list[CellSpan] | None = doc._.kb_cells
        if cells:
            for start, end, cell in cells:
                if not cell.is_header and re.search(r"\b(?:batch|lot)\b", cell.column_header, re.IGNORECASE):
                    found = conditions.batch_cell(text, start, end)
                    if found:
                        candidates.append(found)
        doc._.kb_candidates = candidates
        return doc


@Language.component("kb_resolve")
def kb_resolve(doc: Doc) -> Doc:
    """One entity per place (longest, then most specific rule); conditions inside equipment dropped."""
    text = doc_text(doc)
    cells: list[CellSpan] = doc._.kb_cells or []
    kept = [c for c in doc._.kb_candidates or [] if c.kind != "role" or _names_role(text, c, cells)]
    resolved = resolve(kept)
    equipment = [(c.start, c.end) for c in resolved if c.kind == "equipment"]
    doc._.kb_candidates = [
        c for c in resolved if not (c.layer != ENTITY_LAYER and any(s <= c.start and c.end <= e for s, e in equipment))
    ]
    return doc


_AS_ROLE = re.compile(r"\bas\s+(?:the\s+|an?\s+)?$", re.IGNORECASE)


def _names_role(text: str, cand: Candidate, cells: list[CellSpan]) -> bool:
    """A role word is a role mention when it assigns a role ('added as base') or is a whole data cell."""
    if _AS_ROLE.search(text[max(0, cand.start - 12) : cand.start]):
        return True
    if cells:
        return any(s == cand.start and e == cand.end and not cell.is_header for s, e, cell in cells)
    return text.strip() == text[cand.start : cand.end]


@Language.component("kb_roles")
def kb_roles(doc: Doc) -> Doc:
    """Add a role candidate over each substance whose context or column header names its role."""
    text = doc_text(doc)
    sentences: list[tuple[int, int]] = doc._.kb_sentences or [(0, len(text))]
    cells: list[CellSpan] = doc._.kb_cells or []
    found: list[Candidate] = []
    previous: tuple[int, str | None] = (-1, None)
    for cand in doc._.kb_candidates:
        if cand.kind != "substance":
            continue
        sentence = next(((s, e) for s, e in sentences if s <= cand.start < e), (0, len(text)))
        role_rule = None
        cell = next((c for s, e, c in cells if s <= cand.start < e), None)
        if cell is not None and not cell.is_header:
            header = roles.header_role(cell.column_header)
            role_rule = (header, "role.table_header") if header else None
        if role_rule is None:
            role_rule = roles.role_of(text, cand.start, cand.end, sentence, cand.attr("category"))
        if role_rule is None and previous[0] >= 0:
            role_rule = roles.pair_role(text[previous[0] : cand.start], previous[1], cand.attr("category"))
        previous = (cand.end, role_rule[0] if role_rule else None)
        if role_rule:
            role, rule = role_rule
            found.append(Candidate(cand.start, cand.end, "role", ROLE_CLASSES[role], rule, 2, "role", (("role", role),)))
    doc._.kb_candidates = sorted(doc._.kb_candidates + found, key=lambda c: (c.start, c.end, c.cls))
    return doc


@lru_cache(maxsize=1)
def build_pipeline() -> Language:
    """spacy.blank('en') with the extraction components; built once per process."""
    nlp = spacy.blank("en")
    for name in ("kb_sentences", "kb_lexicon", "kb_shapes", "kb_resolve", "kb_roles"):
        nlp.add_pipe(name)
    return nlp


def cell_spans(chunk: Chunk) -> list[CellSpan]:
    """Offsets of each cell inside the chunk text (rows joined by '\\n', cells by ' | ')."""
    if chunk.kind != "table" or not chunk.cells:
        return []
    out: list[CellSpan] = []
    rows: dict[int, list[Cell]] = {}
    for cell in chunk.cells:
        rows.setdefault(cell.row, []).append(cell)
    offset = 0
    for row in sorted(rows):
        for i, cell in enumerate(sorted(rows[row], key=lambda c: c.column)):
            if i:
                offset += 3
            out.append((offset, offset + len(cell.text), cell))
            offset += len(cell.text)
        offset += 1
    rendered = "\n".join(" | ".join(c.text for c in sorted(rows[r], key=lambda c: c.column)) for r in sorted(rows))
    return out if rendered == chunk.text else []


def _mentions(chunk: Chunk, doc: Doc) -> list[Mention]:
    out = []
    for cand in doc._.kb_candidates:
        attrs = tuple(sorted(cand.attrs))
        out.append(Mention(chunk.iri, cand.start, cand.end, cand.cls, chunk.text[cand.start : cand.end], cand.kind, cand.rule, attrs))
    return out


def _doc_for(nlp: Language, chunk: Chunk) -> Doc:
    doc = nlp.make_doc(chunk.text)
    doc.user_data["kb_text"] = chunk.text
    doc._.kb_cells = cell_spans(chunk) or None
    doc._.kb_candidates = []
    return doc


def extract_chunk(chunk: Chunk) -> list[Mention]:
    """Typed mentions of one chunk, sorted by (chunk, start, end, class)."""
    nlp = build_pipeline()
    doc = _doc_for(nlp, chunk)
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return sort_mentions(_mentions(chunk, doc))
