"""Lexical agent: a bounded loop over passage tools; with the `none` backend a fixed plan.

Plan: search (filters from the question's report id / version), read the best passages, and
answer extractively with the two sentences that best cover the question's terms (preferring
sentences that state the asked quantity); a sentence found in several documents (a report and
its PDF export, or unchanged text across versions) is one item citing each of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kb.agent.answer import Answer, AnswerItem, Tracer
from kb.agent.citations import CitationBuilder
from kb.agent.linking import LinkedQuestion
from kb.agent.llm import LLMChain
from kb.stages.extract.spans import sentence_spans
from kb.store import GraphStore

STOPWORDS = {"a", "an", "the", "of", "in", "on", "at", "for", "to", "and", "or", "by", "with", "from", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was", "were", "be", "been", "this", "that", "these", "those", "it", "its", "as", "do", "does", "did", "used", "use", "using", "report", "version", "step", "all", "any", "there", "their", "list", "give", "show", "tell", "me", "please"}
QUANTITY = re.compile(r"\b(temperature|rise|margin|time|how long|yield|purity|pressure|ph|volumes?|equivalents?|amount|lot|batch|scale|concentration)\b", re.IGNORECASE)
VALUE_QUESTION = re.compile(r"\b(what|which|how many)\b[^?]*\b(reported|value|level|range|factor|rise|conversion|charge|loading|density|rrt|pde|point)\b", re.IGNORECASE)
UNIT_OF_QUANTITY = {
    "temperature": re.compile(r"-?\d+(?:\.\d+)?\s*°\s*[CF]"),
    "rise": re.compile(r"\d+(?:\.\d+)?\s*K\b"),
    "margin": re.compile(r"\d+(?:\.\d+)?\s*K\b"),
    "time": re.compile(r"\d+(?:\.\d+)?\s*(?:h|hours?|min|minutes?|days?)\b"),
    "how long": re.compile(r"\d+(?:\.\d+)?\s*(?:h|hours?|min|minutes?|days?)\b"),
    "pressure": re.compile(r"\d+(?:\.\d+)?\s*(?:bar|barg|psi|kPa|MPa|atm|mbar)\b"),
    "yield": re.compile(r"\d+(?:\.\d+)?\s*%"),
    "purity": re.compile(r"\d+(?:\.\d+)?\s*(?:%|area)"),
    "ph": re.compile(r"\bpH\s*\d"),
    "equivalents": re.compile(r"\d+(?:\.\d+)?\s*(?:equiv|eq)\b"),
    "equivalent": re.compile(r"\d+(?:\.\d+)?\s*(?:equiv|eq)\b"),
    "volumes": re.compile(r"\d+(?:\.\d+)?\s*(?:vol|L|mL)\b"),
    "volume": re.compile(r"\d+(?:\.\d+)?\s*(?:vol|L|mL)\b"),
    "lot": re.compile(r"\b[A-Z0-9]{2,}-\d{2}-\d{3}\b|\blot\b", re.IGNORECASE),
    "batch": re.compile(r"\b[A-Z0-9]{2,}-\d{2}-\d{3}\b|\bbatch\b", re.IGNORECASE),
}
FILE_NAME = re.compile(r"\S+\.(?:docx|pdf|pptx|xlsx|html?|md|txt)\b", re.IGNORECASE)
COMPARE_K = 30
PAIR_CANDIDATES = 6
SAME_SECTION_BONUS = 2.0
VALUE = re.compile(r"(?<![\w.-])\d+(?:\.\d+)?(?![\w-])")
NO_VALUE_PENALTY = 1.0
ATTRIBUTE_WEIGHT = 1.5
MISSING_ATTRIBUTE_PENALTY = 2.0
OTHER_STEP_PENALTY = 2.0
TOKEN = re.compile(r"\d+(?:\.\d+)+|[\w\-]+")
STEP_NUMBER = re.compile(r"\bstep\s*(\d+)\b", re.IGNORECASE)
STEP_OR_VERSION_NUMBER = re.compile(r"\b(?:step|version|v)\s*\d+\b", re.IGNORECASE)
CHANGE_WORDS = re.compile(r"\b(chang\w*|differ\w*|modif\w*|evolv\w*|how did)\b", re.IGNORECASE)
SECTION_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+")
ANSWER_SENTENCES = 2
OPENED_SECTIONS = 3
SECOND_SENTENCE_SHARE = 0.75

Search = Callable[..., list[Any]]


CAPTION = re.compile(r"^\s*(Table|Figure|Scheme|Slide)\s+\d+\s*[:.]", re.IGNORECASE)
CAPTION_PENALTY = 2.0
ENTITY_WEIGHT = 1.0
SECTION_WORDS = {"conclusion", "recommendation", "summary", "procedure", "safety", "specification", "discussion", "outlook"}
SECTION_WORD_WEIGHT = 4.0
SECTION_WORD_STEM = 6
TABLE_HEADER_WEIGHT = 0.5
MAX_OTHER_NAMES = 3
RANK_PENALTY = 0.4  # spread over the hits, so a 30-passage comparison is not ruled by rank


def stem(word: str) -> str:
    """Plural to singular, enough for 'conclusions' to meet 'conclusion' and 'volumes' 'volume'."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) else word


def terms(text: str) -> set[str]:
    """Content words, singular; whole numbers count ("run 5", "Step 3"), the digits of 8.2 do not."""
    return {stem(w) for w in TOKEN.findall(text.lower()) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())}


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.split(" | ")]


def reading_units(passage: Any) -> list[tuple[int, int, str]]:
    """Sentences with their context: a table's data rows carry the header row, which is no answer by itself."""
    spans = joined_clauses(passage.text, sentence_spans(passage.text))
    if getattr(passage, "kind", "") != "table" or len(spans) < 2:
        return [(begin, end, "") for begin, end in spans]
    header = passage.text[spans[0][0] : spans[0][1]]
    return [(begin, end, header) for begin, end in spans[1:]]


def other_names(scored: Scored, names: list[tuple[int, int, str]]) -> str:
    """' (PhMe = toluene)': the resolved names (longest first) of the substances a statement mentions
    by another name, so an abbreviation in a slide reads as the substance the question named."""
    text = scored.statement.lower()
    found: dict[str, list[str]] = {}
    for start, end, label in names:
        if scored.start <= start and end <= scored.end and label.lower() not in text:
            found.setdefault(scored.passage.text[start:end], []).append(label)
    parts = [f"{surface} = {', '.join(sorted(labels, key=lambda l: (-len(l), l))[:MAX_OTHER_NAMES])}" for surface, labels in sorted(found.items())]
    return f" ({'; '.join(parts)})" if parts else ""


def section_title(section_path: str) -> str:
    """'5 Step 3: SNAr cyclisation > 5.3 Charges' -> 'Step 3: SNAr cyclisation > Charges'."""
    return " > ".join(SECTION_NUMBER.sub("", part).strip() for part in section_path.split(" > ") if part.strip())


def with_section(statement: str, section_path: str) -> str:
    """The statement, then the section it stands in ('Step 3: SNAr cyclisation > Charges'), numbering
    dropped: a table row alone does not say which step or material it is about."""
    where = section_title(section_path)
    return f"{statement} [{where}]" if where else statement


def same_section(a: Scored, b: Scored) -> bool:
    return section_title(a.passage.section_path) == section_title(b.passage.section_path)


def paired(first: list[Scored], second: list[Scored]) -> list[Scored | None]:
    """The best pair of statements from two versions, one from each; a pair standing in the same
    section earns SAME_SECTION_BONUS (reports keep their structure across versions)."""
    pairs = [(a, b) for a in first[:PAIR_CANDIDATES] for b in second[:PAIR_CANDIDATES]]
    if not pairs:
        return [next(iter(first), None), next(iter(second), None)]
    best = max(pairs, key=lambda p: p[0].score + p[1].score + (SAME_SECTION_BONUS if same_section(*p) else 0.0))
    return list(best)


def joined_clauses(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentences again whole where the splitter cut at a semicolon on the same line: a slide's
    'Solvent for Step 2: THF; 65 °C, 4 h' is one statement to a reader."""
    out: list[tuple[int, int]] = []
    for begin, end in spans:
        if out and text[out[-1][1] - 1] == ";" and "\n" not in text[out[-1][1] : begin]:
            out[-1] = (out[-1][0], end)
        else:
            out.append((begin, end))
    return out


def row_key_terms(question: str) -> set[str]:
    """The question's terms that can name a table row: not the numbers of 'Step 4' or 'version 5'."""
    return terms(STEP_OR_VERSION_NUMBER.sub(" ", question))


def column_terms(question: str) -> set[str]:
    """The question's terms as column headers spell them: 'after Step 6' also reads 'S6'."""
    return terms(question) | {f"s{n}" for n in STEP_NUMBER.findall(question)}


def column_states(header: str, row: str, words: set[str]) -> bool:
    """A table row states the asked quantity when the column named for it holds a number
    ('Yield (%)' over '82.2'): the unit lives in the header."""
    return any(terms(name) & words and VALUE.search(value) for name, value in zip(cells(header), cells(row)))


def row_answer(header: str, row: str, columns: set[str] | frozenset[str] = frozenset()) -> str:
    """'RRT: 1.37; Limit: 0.15%' from a header row and a data row of the same width, else the row.
    The one column whose header best matches the question comes first, so 'after Step 6' reads
    the 'After S6' cell before the other stages' cells."""
    names, values = cells(header), cells(row)
    if len(names) != len(values):
        return row
    pairs = [f"{name}: {value}" for name, value in zip(names, values)]
    overlap = [len(terms(name) & columns) for name in names]
    best = max(overlap, default=0)
    if best and overlap.count(best) == 1:
        first = overlap.index(best)
        pairs.insert(0, pairs.pop(first))
    return "; ".join(pairs)


@dataclass
class Scored:
    score: float
    passage: Any
    start: int
    end: int
    header: str = ""
    columns: frozenset[str] = frozenset()
    states: bool = False

    @property
    def quote(self) -> str:
        return self.passage.text[self.start : self.end].strip()

    @property
    def statement(self) -> str:
        """The sentence, or a table row spelled out with its column names."""
        return row_answer(self.header, self.quote, self.columns) if self.header else self.quote


def form_patterns(forms: dict[str, list[str]]) -> list[re.Pattern[str]]:
    """One pattern per linked entity matching any of its labels ('KOtBu' for potassium tert-butoxide)."""
    return [re.compile(r"(?<![\w-])(" + "|".join(re.escape(f) for f in sorted(labels, key=len, reverse=True)) + r")(?![\w-])", re.IGNORECASE)
            for labels in forms.values() if labels]


def value_numbers(sentence: str, question_terms: set[str]) -> bool:
    """A number the question did not bring ('Step 3', 'version 12' do not count), standing alone
    (not part of a date, lot code or name)."""
    return any(n not in question_terms for n in VALUE.findall(sentence))


def same_word(section_word: str, term: str) -> bool:
    """'concluded' asks for the conclusion, 'discussed' for the discussion: one word family shares
    its first six letters."""
    return term == section_word or (len(term) >= SECTION_WORD_STEM and term[:SECTION_WORD_STEM] == section_word[:SECTION_WORD_STEM])


def asked_units(question: str) -> list[re.Pattern[str]]:
    """How a value of each quantity the question asks for is written ('yield' -> '84.0%')."""
    return [UNIT_OF_QUANTITY[q.lower()] for q in QUANTITY.findall(question) if q.lower() in UNIT_OF_QUANTITY]


def best_sentences(question: str, passages: list[Any], limit: int = 2, *, forms: dict[str, list[str]] | None = None,
                   anchors: set[str] | frozenset[str] = frozenset()) -> list[Scored]:
    """Sentences (or table rows) ranked by question-term coverage, then passage rank.

    A sentence stating the asked quantity with its unit ("what temperature" -> "65 °C") earns a
    bonus, and terms of the passage's section path count toward all its sentences, so "the SNAr
    temperature" finds "held at 65 °C" under "Step 3: SNAr cyclisation > Procedure". A table row
    also counts its header's terms and a first cell the question names; labels of the question's
    linked entities count, captions and ``anchors`` (what a filter already enforces) do not. The
    asked attribute weighs most: stated with its unit and named earns most, neither named nor
    stated loses two points, and a passage whose section is about another step loses two.
    docs/agent.md has the weights.
    """
    asked_terms = terms(question)
    wanted = asked_terms - anchors
    asked = asked_units(question)
    asked_words = {stem(q.lower()) for q in QUANTITY.findall(question) if q.lower() in UNIT_OF_QUANTITY and " " not in q}
    quantity = bool(QUANTITY.search(question)) or bool(VALUE_QUESTION.search(question))
    entities = form_patterns(forms or {})
    keys = row_key_terms(question) - anchors
    columns = frozenset(column_terms(question) - anchors)
    steps = set(STEP_NUMBER.findall(question))
    cues = {w for w in SECTION_WORDS if any(same_word(w, t) for t in wanted)}
    attributes = asked_words | {t for t in wanted if not t[:1].isdigit()}
    scored: list[Scored] = []
    for rank, passage in enumerate(passages):
        section_path = getattr(passage, "section_path", "")
        section_terms = terms(section_path)
        context = SECTION_WORD_WEIGHT * len({w for w in cues if any(same_word(w, t) for t in section_terms)})
        context += 0.3 * len((wanted & section_terms) - SECTION_WORDS)
        section_steps = set(STEP_NUMBER.findall(section_path))
        if steps and section_steps and not steps & section_steps:
            context -= OTHER_STEP_PENALTY
        for begin, end, header in reading_units(passage):
            sentence = passage.text[begin:end]
            found = wanted & terms(sentence)
            states_quantity = any(pattern.search(sentence) for pattern in asked) or bool(header and column_states(header, sentence, attributes))
            named = sum(1 for pattern in entities if pattern.search(sentence))
            if not found and not states_quantity and not named:
                continue
            score = len(found) + context - RANK_PENALTY * rank / max(len(passages), 8)
            if header:
                score += TABLE_HEADER_WEIGHT * len((wanted & terms(header)) - found)
                key = cells(sentence)[0]
                score += 1.0 if terms(key) & keys or any(pattern.fullmatch(key) for pattern in entities) else 0.0
            names_quantity = bool(asked_words & terms(f"{header} {sentence}"))
            if states_quantity:
                score += 1.5 + (ATTRIBUTE_WEIGHT if names_quantity else 0.0)
            elif asked and not names_quantity:
                score -= MISSING_ATTRIBUTE_PENALTY
            elif quantity:
                score += 0.5 if value_numbers(sentence, asked_terms) else -NO_VALUE_PENALTY
            score += ENTITY_WEIGHT * named
            score -= CAPTION_PENALTY if CAPTION.match(sentence) else 0.0
            scored.append(Scored(score, passage, begin, end, header, columns, states_quantity))
    scored.sort(key=lambda s: (-s.score, s.passage.iri, s.start))
    return scored[:limit]


class LexicalAgent:
    def __init__(self, store: GraphStore, search: Search, llm: LLMChain, *, k: int = 8,
                 chapter: Callable[[str], list[Any]] | None = None) -> None:
        self.store = store
        self.search = search
        self.llm = llm
        self.k = k
        self.chapter = chapter

    def opened_sections(self, passages: list[Any], tracer: Tracer) -> list[Any]:
        """The passages of the top-level sections of the first few hits that are not hits already."""
        seen = {p.iri for p in passages}
        opened: list[Any] = []
        for hit in passages[:OPENED_SECTIONS]:
            for passage in self.chapter(hit.iri) if self.chapter else []:
                if passage.iri not in seen:
                    seen.add(passage.iri)
                    opened.append(passage)
        tracer.add("lexical.open_section", of=[p.iri for p in passages[:OPENED_SECTIONS]], read=len(opened))
        return opened

    def filters(self, linked: LinkedQuestion) -> dict[str, str]:
        filters: dict[str, str] = {}
        if linked.series:
            filters["series"] = linked.series[0]
        if linked.versions and linked.series:
            filters["version"] = linked.versions[0]
        return filters

    def passages(self, question: str, filters: dict[str, str], tracer: Tracer) -> list[Any]:
        """Search with the question's filters; without them only when they leave nothing."""
        passages = self.search(question, filters, self.k)
        tracer.add("lexical.search", filters=filters, k=self.k, hits=[p.iri for p in passages])
        if not passages and filters:
            passages = self.search(question, {}, self.k)
            tracer.add("lexical.search", filters={}, k=self.k, hits=[p.iri for p in passages], why="no hit with filters")
        return passages

    def read(self, question: str, passages: list[Any], linked: LinkedQuestion, filters: dict[str, str], tracer: Tracer) -> list[Scored]:
        """The best sentences or table rows of the passages.

        The report id and version a filter already enforces earn nothing ("version 13" in a
        conclusions preamble is no answer), while any label of a linked entity does ("KOtBu").
        """
        anchors = terms(" ".join(filters.values())) if filters else set()
        chosen = best_sentences(question, passages, limit=12, forms=linked.forms, anchors=anchors)
        tracer.add("lexical.read", sentences=[(s.passage.iri, s.start, s.end, round(s.score, 2)) for s in chosen])
        return chosen

    def items(self, chosen: list[Scored], most: int = ANSWER_SENTENCES) -> list[AnswerItem]:
        """The first ``most`` statements (and any close second); a text found in several documents
        is one item citing each."""
        builder = CitationBuilder(self.store)
        items: dict[str, AnswerItem] = {}
        for scored in chosen:
            quote = scored.quote
            if quote not in items and (len(items) == most or scored.score < SECOND_SENTENCE_SHARE * chosen[0].score):
                continue
            citation = builder.cite(scored.passage.iri, quote=quote)
            if quote not in items:
                names = other_names(scored, builder.substance_names(scored.passage.iri))
                items[quote] = AnswerItem(text=with_section(scored.statement + names, citation.section_path if citation else ""))
            item = items[quote]
            if citation is not None and citation not in item.citations:
                item.citations.append(citation)
        return list(items.values())

    def answer(self, question: str, linked: LinkedQuestion, tracer: Tracer) -> Answer:
        if linked.series and len(linked.versions) >= 2:
            return self.compare(question, linked, tracer)
        filters = self.filters(linked)
        passages = self.passages(question, filters, tracer)
        if not passages:
            return Answer(question, "lexical", "I found no passage that matches this question.", found_evidence=False)
        chosen = self.read(question, passages, linked, filters, tracer)
        if self.chapter is not None and asked_units(question) and chosen and not chosen[0].states:
            # a step's yield sits in its procedure, not in the background paragraph that matched
            # the step's name: read the hits' sections when the best statement states no value
            chosen = self.read(question, passages + self.opened_sections(passages, tracer), linked, filters, tracer)
        items = self.items(chosen)
        if not items:
            return Answer(question, "lexical", "The best passages do not contain the question's terms; no answer is given.", found_evidence=False)
        return Answer(question, "lexical", " ".join(i.text for i in items), items=items)

    def compare(self, question: str, linked: LinkedQuestion, tracer: Tracer) -> Answer:
        """Two versions of one report named: a statement of each, in the order asked.

        A statement also found in the other version's passages is passed over while a changed one
        is left (it cannot say what changed), and the two are chosen as a pair: a pair from the
        same section ("Summary" in both) outranks two separately best statements, so version 4's
        "use PhMe at 80 °C" answers version 3's "use PhMe at 85 °C", not a safety paragraph.
        """
        asked = CHANGE_WORDS.sub(" ", FILE_NAME.sub(" ", question))
        versions = linked.versions[:2]
        filters = {v: {"series": linked.series[0], "version": v} for v in versions}
        searched = {v: self.search(asked, filters[v], COMPARE_K) for v in versions}
        read: dict[str, list[Scored]] = {}
        for version in versions:
            other = "\n".join(p.text for v in versions if v != version for p in searched[v])
            found = self.read(asked, searched[version], linked, filters[version], tracer)
            read[version] = [s for s in found if s.quote not in other] or found
        picks = paired(read[versions[0]], read[versions[1]]) if len(versions) == 2 else [next(iter(read[v]), None) for v in versions]
        items: list[AnswerItem] = []
        parts = []
        for version, pick in zip(versions, picks):
            found = self.items([s for s in read[version] if pick is not None and s.quote == pick.quote], most=1)
            tracer.add("lexical.compare", filters=filters[version], found=len(found))
            parts.append(f"In version {version}: {found[0].text if found else 'no matching statement was found.'}")
            items.extend(found)
        if not items:
            return Answer(question, "lexical", f"Neither version of {linked.series[0]} has a passage that matches this question.", found_evidence=False)
        return Answer(question, "lexical", " ".join(parts), items=items)
