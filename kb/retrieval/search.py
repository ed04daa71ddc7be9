"""The search API the lexical agent calls: ``search(query, filters, k) -> list[Passage]``.

Filters cut the candidate rows first; BM25 and dense similarity then rank what is left, each
contributing its best ``retrieval.candidates`` rows, and the two rankings are fused (RRF by
default). Every passage carries what a citation needs and the spans to highlight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from pathlib import Path

from kb.config import Config, load_config
from kb.errors import ConfigError
from kb.retrieval import fusion
from kb.retrieval.chunks import ChunkRecord
from kb.retrieval.dense import embed_query
from kb.retrieval.filters import Filters, mask, parse_filters
from kb.retrieval.index import PassageIndex, open_index
from kb.retrieval.normalise import (
    VERSION,
    fold,
    identifiers,
    matched_spans,
    synonym_table,
    term_list,
)

METHODS = ("fused", "keyword", "dense")
FUSIONS = ("rrf", "weighted")
DENSE_WEIGHT = 0.7
# the dense vote counts half in RRF: on the demo program MiniLM alone finds 0.71 of the answers
# in its first ten, BM25 0.97, and an equal vote let dense-only neighbours crowd out BM25's first
# hits; a fifth when no filter applies, since over the whole corpus MiniLM's neighbours are the
# same step's chunks from every document and version (docs/retrieval.md)
RRF_WEIGHTS = {"keyword": 1.0, "dense": 0.5}
UNFILTERED_DENSE_WEIGHT = 0.2
# a chunk that contains every code the question names (lot, batch, compound code) outranks any
# chunk that does not: "KX1-19-005" must not lose to "KX1-19-004" on a close embedding
EXACT_CODE_BONUS = 10.0


@dataclass(frozen=True)
class Passage:
    """One ranked chunk with its citation (document, version, section, page) and highlight spans."""

    iri: str
    document: str
    title: str
    version: str
    report_id: str
    section_path: str
    page: int
    kind: str
    language: str
    text: str
    score: float
    spans: tuple[tuple[int, int], ...] = ()
    ranks: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, record: ChunkRecord, score: float, spans: list[tuple[int, int]], ranks: dict[str, int]) -> Passage:
        return cls(
            iri=record.iri,
            document=record.document,
            title=record.title,
            version=record.version,
            report_id=record.report_id,
            section_path=record.section_path,
            page=record.page,
            kind=record.kind,
            language=record.language,
            text=record.text,
            score=score,
            spans=tuple(spans),
            ranks=ranks,
        )


def anchors(query: str, index: PassageIndex) -> Filters:
    """Filters a question states itself: a report id the index knows, and a version next to it.

    The PRINCE seed derives a metadata filter from the question before searching; here the
    filter comes from the index's own report ids, so "in TR-2019-014 v4, ..." searches v4 only.
    """
    folded = fold(query)
    known = sorted(index.report_ids, key=len, reverse=True)
    series = next((rid for rid in known if re.search(r"(?<![\w-])" + re.escape(fold(rid)) + r"(?![\w-])", folded)), "")
    if not series:
        return Filters()
    version = VERSION.search(query)
    return Filters(series=series, version=version.group(1) if version else "")


def merged(explicit: Filters, implied: Filters) -> Filters:
    """Explicit filters win; implied ones fill the keys left empty."""
    values = {f.name: getattr(explicit, f.name) or getattr(implied, f.name) for f in fields(Filters)}
    return Filters(**values)


def effective_filters(query: str, filters: Filters | dict[str, str] | list[str] | None, index: PassageIndex, *, anchor: bool) -> Filters:
    """The caller's filters, narrowed by the question's own anchors when that leaves any chunk."""
    wanted = filters if isinstance(filters, Filters) else parse_filters(filters)
    if anchor:
        narrowed = merged(wanted, anchors(query, index))
        if narrowed != wanted and mask(index.columns, narrowed).any():
            return narrowed
    return wanted


def without_anchors(query: str, filters: Filters) -> str:
    """The question less the report id and the single version its filters already enforce, for
    the embedding: inside the filtered rows they tell no chunk apart, and in a one-line question
    they pull the vector towards any text naming a report version."""
    if filters.series:
        series = r"(?:\breport\s+)?(?<![\w-])" + re.escape(filters.series) + r"(?![\w-])"
        query = re.sub(series, " ", query, flags=re.IGNORECASE)
    if filters.version.isdigit():
        query = VERSION.sub(lambda m: " " if m.group(1) == filters.version else m.group(), query)
    query = re.sub(r" (?=[,?.])", "", " ".join(query.split()))
    return re.sub(r"^in ?,\s*", "", query, flags=re.IGNORECASE)


def rrf_weights(names: list[str], filters: Filters) -> list[float]:
    """Per-method RRF weights; the dense vote shrinks when nothing narrows the corpus."""
    dense = RRF_WEIGHTS["dense"] if filters.active() else UNFILTERED_DENSE_WEIGHT
    return [dense if name == "dense" else RRF_WEIGHTS[name] for name in names]


def required_codes(query: str, index: PassageIndex) -> frozenset[str]:
    """Codes the question names that a chunk must contain: not report ids (the anchor filter
    handles those) and not substance names such as ``2-methyltetrahydrofuran``, which passages
    also state by a synonym (``2-MeTHF``)."""
    synonyms = synonym_table()
    return frozenset(
        code for code in identifiers(query) - {fold(rid) for rid in index.report_ids}
        if not synonyms.knows(code)
    )


def collapse(rankings: dict[str, list[int]], text_key: list[int]) -> tuple[dict[str, list[int]], list[int]]:
    """Each method's ranking over distinct texts, and the repeated copies left out.

    Report versions repeat most sentences verbatim; ten copies of one sentence would fill the
    first page and push out the sentence that differs (another version's solvent or yield). A
    text is represented by its first copy in any ranking (keyword before dense), so both methods
    vote for the same row; the other copies follow all distinct texts, best first.
    """
    representative: dict[int, int] = {}
    for ranking in rankings.values():
        for row in ranking:
            representative.setdefault(text_key[row], row)
    distinct: dict[str, list[int]] = {}
    for name, ranking in rankings.items():
        keys = dict.fromkeys(text_key[row] for row in ranking)
        distinct[name] = [representative[key] for key in keys]
    copies = dict.fromkeys(row for ranking in rankings.values() for row in ranking if representative[text_key[row]] != row)
    return distinct, list(copies)


_INDEXES: dict[Path, tuple[float, PassageIndex]] = {}


def cached_index(config: Config) -> PassageIndex:
    """The index at ``index.path``, reloaded only when its manifest changed on disk."""
    folder = Path(config["index.path"])
    manifest = folder / "manifest.json"
    stamp = manifest.stat().st_mtime if manifest.is_file() else -1.0
    hit = _INDEXES.get(folder)
    if hit is None or hit[0] != stamp:
        hit = (stamp, open_index(config))
        _INDEXES[folder] = hit
    return hit[1]


def rank(
    index: PassageIndex,
    query: str,
    filters: Filters,
    *,
    method: str,
    fusion_kind: str,
    candidates: int,
    model: str,
    threads: int = 1,
) -> list[tuple[int, float, dict[str, int]]]:
    """Rows, scores and per-method ranks, best first."""
    if method not in METHODS:
        raise ConfigError(f"Unknown search method '{method}'; available: {', '.join(METHODS)}")
    if fusion_kind not in FUSIONS:
        raise ConfigError(f"Unknown fusion '{fusion_kind}'; available: {', '.join(FUSIONS)}")
    rows = mask(index.columns, filters)
    keyword_scores = dense_scores = None
    rankings: dict[str, list[int]] = {}
    if method in ("fused", "keyword"):
        keyword_scores = index.keyword.scores(term_list(query), rows)
        rankings["keyword"] = fusion.top_rows(keyword_scores, candidates)
    if method in ("fused", "dense") and index.dense.ids:
        dense_scores = index.dense.scores(embed_query(model, without_anchors(query, filters), threads), rows)
        rankings["dense"] = fusion.top_rows(dense_scores + 1.0, candidates)
    rankings, copies = collapse(rankings, index.text_key)
    position = {name: {row: i + 1 for i, row in enumerate(r)} for name, r in rankings.items()}
    if method == "keyword":
        fused = {row: float(keyword_scores[row]) for row in rankings["keyword"]}  # type: ignore[index]
    elif method == "dense":
        fused = {row: float(dense_scores[row]) for row in rankings.get("dense", [])}  # type: ignore[index]
    elif fusion_kind == "rrf":
        fused = fusion.reciprocal_rank(list(rankings.values()), weights=rrf_weights(list(rankings), filters))
    else:
        fused = fusion.weighted(
            [(keyword_scores, rankings["keyword"], 1.0 - DENSE_WEIGHT)]  # type: ignore[list-item]
            + ([(dense_scores, rankings["dense"], DENSE_WEIGHT)] if "dense" in rankings else [])
        )
    codes = required_codes(query, index) if method == "fused" else frozenset()
    if codes:
        fused = {row: score + (EXACT_CODE_BONUS if codes <= index.codes[row] else 0.0) for row, score in fused.items()}
    best = [
        (row, score, {name: ranks[row] for name, ranks in position.items() if row in ranks})
        for row, score in fusion.ranked(fused, len(fused))
    ]
    floor = best[-1][1] if best else 0.0
    return best + [(row, floor, {}) for row in copies]


def search(
    query: str,
    filters: Filters | dict[str, str] | list[str] | None = None,
    k: int | None = None,
    *,
    config: Config | None = None,
    index: PassageIndex | None = None,
    method: str = "fused",
    fusion_kind: str | None = None,
    anchor: bool = True,
    keyword_extra: int = 0,
) -> list[Passage]:
    """Ranked passages for a question.

    Args:
        query: the question in plain language.
        filters: ``Filters``, a mapping or ``key=value`` strings (see kb.retrieval.filters).
        k: how many passages (default ``retrieval.k``).
        config: settings (default: resolved from kb.toml and the environment).
        index: an open index (default: the one at ``index.path``).
        method: ``fused``, ``keyword`` or ``dense``.
        fusion_kind: ``rrf`` or ``weighted`` (default ``retrieval.fusion``).
        anchor: narrow to a report (and version) the question names, when the index knows it
            and the narrowed set is not empty.
        keyword_extra: with ``fused``, also the passages BM25 ranks within its first
            ``keyword_extra`` that fusion left out of the first ``k``, after them in BM25 order
            (exact codes and table terms the embedding dilutes), from the same ranking pass.

    Returns:
        Passages best first, each with citation fields, score and matched spans.
    """
    config = config or load_config()
    index = index or cached_index(config)
    wanted = effective_filters(query, filters, index, anchor=anchor)
    limit = k or config["retrieval.k"]
    ranked = rank(
        index,
        query,
        wanted,
        method=method,
        fusion_kind=fusion_kind or config["retrieval.fusion"],
        candidates=max(config["retrieval.candidates"], limit),
        model=config["embedding.model"],
        threads=config["embedding.threads"],
    )
    chosen = ranked[:limit]
    if keyword_extra and method == "fused":
        left_out = [hit for hit in ranked[limit:] if 0 < hit[2].get("keyword", 0) <= keyword_extra]
        chosen += sorted(left_out, key=lambda hit: hit[2]["keyword"])
    query_terms = set(term_list(query))
    return [
        Passage.of(index.records[row], score, matched_spans(index.records[row].text, query_terms), ranks)
        for row, score, ranks in chosen
    ]


def highlight(passage: Passage, *, before: str = "[", after: str = "]") -> str:
    """The passage text with its matched spans wrapped in markers."""
    out, cursor = [], 0
    for start, end in passage.spans:
        out.append(passage.text[cursor:start] + before + passage.text[start:end] + after)
        cursor = end
    out.append(passage.text[cursor:])
    return "".join(out)

