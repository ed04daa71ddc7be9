"""Where a mention sits: its programme scope, the process step its chunk describes, its apposition.

Scope: numbered steps ('Step 2'), compound numbers ('compound 7') and impurity names are only
unique within one programme, so documents are grouped into programmes: versions of one report
series belong together, and series that share a compound or drug code ('RA-X35', 'KX-4471') belong
to the same programme. Step context: the deepest section whose heading names a step, else the one
step a chunk names.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from itertools import pairwise

from kb.resolve.inputs import Corpus, LocalMention
from kb.resolve.normalise import normalise
from kb.resolve.unionfind import UnionFind

_STEP = re.compile(r"\b(?:step|stage)\s+(\d{1,2}[a-z]?)(?:'|′)?(?![\w.]\d)|\bS(\d{1,2})(?![\w-])", re.IGNORECASE)
_CLASS_NUMBER = re.compile(r"^[a-z]+(?:\s+[a-z]+)?\s+(\d{1,3}[a-z]?|[ivx]{1,4})$")
_CODE = re.compile(r"^[A-Z]{2,4}-[A-Z]?\d{1,5}[A-Za-z]?(?![\w-])")


def step_number(text: str) -> str:
    """'Step 2' / 'S2' / 'stage 2' -> '2'; '' when the text names no numbered step."""
    match = _STEP.search(text)
    return (match.group(1) or match.group(2)).lower() if match else ""


def compound_number(mention: LocalMention) -> str:
    """'compound 7', 'nitrile 7' -> '7' for class-number mentions."""
    if mention.kind != "substance" or "class_number" not in mention.rule:
        return ""
    match = _CLASS_NUMBER.match(normalise(mention.text))
    return match.group(1) if match else ""


def _programme_marks(m: LocalMention) -> str:
    """A form that belongs to one programme: a compound or drug code, or a long systematic name."""
    text = m.text.strip()
    if m.kind != "substance":
        return ""
    code = _CODE.match(text)
    if code:
        return code.group()
    return normalise(text) if "systematic" in m.rule and len(text) >= 20 else ""


def programme_scopes(corpus: Corpus) -> dict[str, str]:
    """Document IRI -> programme scope id (the smallest series id of its programme).

    Series are linked when they share a programme mark. A programme is a linked group of at least
    two documents; a lone document linked to nothing (a standalone deck or appendix) joins the
    programme when the corpus holds exactly one, and stays on its own otherwise.
    """
    series_of = {iri: d.series for iri, d in corpus.documents.items()}
    for m in corpus.mentions:
        doc = corpus.document_of(m)
        series_of.setdefault(doc, doc)
    uf = UnionFind(sorted(set(series_of.values())))
    marked: dict[str, set[str]] = defaultdict(set)
    for m in corpus.mentions:
        mark = _programme_marks(m)
        if mark:
            marked[mark].add(series_of[corpus.document_of(m)])
    for mark in sorted(marked):
        members = sorted(marked[mark])
        for other in members[1:]:
            uf.union(members[0], other)
    sizes = Counter(uf.find(series) for series in series_of.values())
    programmes = sorted(root for root, size in sizes.items() if size > 1)
    scopes = {iri: uf.find(series) for iri, series in series_of.items()}
    if len(programmes) == 1:
        scopes = {iri: scope if sizes[scope] > 1 else programmes[0] for iri, scope in scopes.items()}
    return scopes


def chunk_steps(corpus: Corpus) -> dict[str, str]:
    """Chunk IRI -> step number it describes ('' when none): section heading first, else one named step."""
    named: dict[str, set[str]] = defaultdict(set)
    for m in corpus.mentions:
        if m.kind == "planned_process":
            number = step_number(m.text)
            if number:
                named[m.chunk].add(number)
    out: dict[str, str] = {}
    for iri in sorted({m.chunk for m in corpus.mentions}):
        chunk = corpus.chunks.get(iri)
        from_section = ""
        if chunk and chunk.section_path:
            for title in reversed(chunk.section_path.split(" > ")):
                from_section = step_number(title)
                if from_section:
                    break
        out[iri] = from_section or (next(iter(named[iri])) if len(named[iri]) == 1 else "")
    return out


def appositions(corpus: Corpus) -> list[tuple[LocalMention, LocalMention]]:
    """Pairs 'A (B)' of same-kind mentions in one chunk: the text itself declares B an alias of A."""
    by_chunk: dict[str, list[LocalMention]] = defaultdict(list)
    for m in corpus.mentions:
        if m.kind in {"substance", "planned_process", "equipment", "impurity", "analytical_method", "unit_operation"}:
            by_chunk[m.chunk].append(m)
    pairs = []
    for iri in sorted(by_chunk):
        chunk = corpus.chunks.get(iri)
        if chunk is None:
            continue
        items = sorted(by_chunk[iri])
        for a, b in pairwise(items):
            between, after = chunk.text[a.end : b.start], chunk.text[b.end : b.end + 1]
            if a.kind == b.kind and re.fullmatch(r"\s*\(\s*", between) and after == ")":
                pairs.append((a, b))
    return pairs
