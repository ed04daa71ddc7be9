"""Format-neutral documents: blocks that carry the mentions and facts written into them.

Content builders compose sentences through a `Composer`, which records every entity reference at
the moment the text is written; writers then place the blocks on pages, and the ground truth is
read off the blocks plus the page each one landed on. Nothing is re-derived from the output files.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kb.demo.chemistry import GERMAN_FORMS, Entity, Programme, StepState


@dataclass(frozen=True)
class Mention:
    form: str
    entity: str


@dataclass(frozen=True)
class FactSpec:
    """A fact stated by a sentence or cell; `key` groups the same fact across versions."""

    kind: str
    subject: str
    value: str


@dataclass
class Sentence:
    text: str
    mentions: list[Mention] = field(default_factory=list)
    facts: list[FactSpec] = field(default_factory=list)


@dataclass
class Heading:
    level: int
    text: Sentence


@dataclass
class Paragraph:
    sentences: list[Sentence]
    style: str = "body"  # body | bullet | caption

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)


@dataclass
class Table:
    caption: Sentence
    header: list[str]
    rows: list[list[Sentence]]


@dataclass
class PageBreak:
    pass


@dataclass
class Columns:
    """A multi-column page region (PDF only): blocks per column, then a sidebar, in reading order."""

    title: Sentence
    columns: list[list[Paragraph]]
    sidebar: list[Paragraph]


Block = Heading | Paragraph | Table | PageBreak | Columns


@dataclass
class Document:
    """One file of the programme before it is written."""

    file: str
    kind: str
    format: str
    programme: str
    title: str
    report_id: str
    version: int
    date: str
    language: str = "en"
    series: str | None = None
    blocks: list[Block] = field(default_factory=list)
    slides: list[list[Block]] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)  # page of each block, filled by the writer
    slide_pages: list[int] = field(default_factory=list)
    states: list[StepState] = field(default_factory=list)  # steps this document describes in full

    @property
    def version_label(self) -> str:
        return f"Version {self.version}"


def stable_rng(*parts: object) -> random.Random:
    """An RNG seeded from a stable hash of its key (Python's hash() is salted per process)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


_KEEP_CASE = re.compile(r"^(n-|tert-|sec-|c-|[a-z]-|\(|[0-9]|pH)")


_PATTERNS: dict[tuple[str, int, str], tuple[re.Pattern[str], dict[str, str]]] = {}


def _form_pattern(programme: Programme, language: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """One alternation of every non-role surface form, longest first, delimited like words."""
    key = (programme.drug, programme.seed, language)
    if key in _PATTERNS:
        return _PATTERNS[key]
    owner: dict[str, str] = {}
    for e in programme.entities.values():
        if e.type == "role":
            continue
        for f in e.forms:
            if (f in GERMAN_FORMS) == (language == "de") or f not in GERMAN_FORMS:
                owner.setdefault(f, e.id)
    forms = sorted(owner, key=lambda f: (-len(f), f))
    body = "|".join(re.escape(f) for f in forms)
    _PATTERNS[key] = re.compile(rf"(?<![\w-])(?:{body})(?![\w-])"), owner
    return _PATTERNS[key]


class Composer:
    """Writes sentences for one document and records the entity references in them."""

    def __init__(self, programme: Programme, style_key: str, rng: random.Random, *, language: str = "en") -> None:
        self.programme = programme
        self.language = language
        self.style_key = style_key
        self.rng = rng
        self._pending: list[Mention] = []
        self._preferred: dict[str, str] = {}

    def form(self, entity: Entity) -> str:
        """The surface form this document prefers for an entity (stable within the document)."""
        if entity.id not in self._preferred:
            forms = [f for f in entity.forms if (f in GERMAN_FORMS) == (self.language == "de")] or list(entity.forms)
            self._preferred[entity.id] = forms[stable_rng(self.style_key, entity.id).randrange(len(forms))]
        return self._preferred[entity.id]

    def ref(self, entity_id: str, form: str | None = None) -> str:
        """Text for an entity reference; the mention is attached to the next sentence built."""
        entity = self.programme.entity(entity_id)
        text = form if form is not None else self.form(entity)
        if text not in entity.forms:
            raise ValueError(f"{text!r} is not a surface form of {entity_id}")
        self._pending.append(Mention(text, entity_id))
        return text

    def full(self, entity_id: str) -> str:
        """The canonical name, as a first mention in formal prose would use it."""
        return self.ref(entity_id, self.programme.entity(entity_id).name)

    def sent(self, text: str, *facts: FactSpec) -> Sentence:
        mentions, self._pending = self._pending, []
        if text[:1].islower() and not _KEEP_CASE.match(text):
            lead = next((i for i, m in enumerate(mentions) if text.startswith(m.form)), None)
            text = text[0].upper() + text[1:]
            if lead is not None:
                m = mentions[lead]
                mentions[lead] = Mention(text[: len(m.form)], m.entity)
        mentions += self._implicit_mentions(text, mentions)
        for m in mentions:
            if m.form not in text:
                raise ValueError(f"mention {m.form!r} missing from sentence {text!r}")
        return Sentence(text, mentions, list(facts))

    def _implicit_mentions(self, text: str, recorded: list[Mention]) -> list[Mention]:
        """Known surface forms written as plain text (e.g. "HPLC purity", "Step 2") are mentions too.

        Occurrences already claimed by explicit references are skipped; roles are left out because
        their forms are common words ("base", "product").
        """
        covered: list[tuple[int, int]] = []
        for m in recorded:
            start = 0
            while (pos := text.find(m.form, start)) >= 0:
                span = (pos, pos + len(m.form))
                start = pos + 1
                if not any(a < span[1] and span[0] < b for a, b in covered):
                    covered.append(span)
                    break
        pattern, owner = _form_pattern(self.programme, self.language)
        extra = []
        for match in pattern.finditer(text):
            a, b = match.span()
            if not any(x < b and a < y for x, y in covered):
                extra.append(Mention(match.group(), owner[match.group()]))
        return extra

    def pick(self, options: list[str] | tuple[str, ...]) -> str:
        return self.rng.choice(list(options))

    def choose(self, *variants: Callable[[], str]) -> str:
        """Render one of several phrasings; only the chosen one records its mentions."""
        return self.rng.choice(variants)()

    def para(self, *sentences: Sentence, style: str = "body") -> Paragraph:
        return Paragraph(list(sentences), style)

    def heading(self, level: int, text: str) -> Heading:
        return Heading(level, self.sent(text))
