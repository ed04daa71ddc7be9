"""Resolution by union-find over mentions, blocked by kind, merging in precedence order.

1. exact: the same normalised name (numbered steps, compound numbers and impurities within one
   programme; role words by role name);
2. alias: the text declares it ('nitrile 7 (5-bromo-...)', 'compound 7' = 'nitrile 7'), or two
   spellings of one salt ('KX-4471·HCl', 'KX-4471 HCl salt', 'KX-4471 hydrochloride');
3. synonym: one group of the synonym table (abbreviations, formulas, trade names, CAS numbers);
4. role_promotion: an anaphoric role word ('the solvent') joins the substance that fills that role
   in that step of that document, when exactly one does;
5. embedding: cosine of cluster vectors (mean of the embeddings of the chunks that mention them)
   at or above the threshold, under the strict guards.
Every merge passes the guards (kb/resolve/guards.py) and is logged with its rule and mentions.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from kb.resolve import context
from kb.resolve.guards import Profile, blocked
from kb.resolve.inputs import ENTITY_KINDS, Corpus, LocalMention
from kb.resolve.normalise import features, normalise, salt_key
from kb.resolve.synonyms import SynonymTable, default_table
from kb.resolve.unionfind import UnionFind

RULES = ("exact", "alias", "synonym", "role_promotion", "embedding")
CLUSTERED_KINDS = ENTITY_KINDS + ("role",)
SCOPED_KINDS = {"planned_process", "impurity"}
_ANAPHOR = re.compile(r"(?<!\bas )\bthe\s+$", re.IGNORECASE)

ChunkVectors = Callable[[list[str]], dict[str, np.ndarray]]


@dataclass(frozen=True)
class Merge:
    """One successful union: the rule and the two mentions whose clusters it joined."""

    rule: str
    left: str
    right: str
    detail: str = ""


@dataclass(frozen=True)
class Blocked:
    rule: str
    left: str
    right: str
    guard: str


@dataclass
class Resolution:
    """Clusters of mention IRIs (each sorted; clusters ordered by first member) and the log."""

    mentions: dict[str, LocalMention]
    clusters: list[list[str]]
    merges: list[Merge] = field(default_factory=list)
    blocked: list[Blocked] = field(default_factory=list)
    splits: int = 0
    promoted: dict[str, str] = field(default_factory=dict)
    scopes: dict[str, str] = field(default_factory=dict)
    steps: dict[str, str] = field(default_factory=dict)

    def cluster_of(self) -> dict[str, int]:
        return {iri: i for i, cluster in enumerate(self.clusters) for iri in cluster}


class _Merger:
    def __init__(self, mentions: list[LocalMention], table: SynonymTable, corpus: Corpus) -> None:
        self.uf = UnionFind(m.iri for m in mentions)
        self.profile: dict[str, Profile] = {}
        for m in mentions:
            entry = table.lookup(m.kind, m.text)
            self.profile[m.iri] = Profile.of(features(m.text), entry.key if entry else "", corpus.document_of(m) + "|" + m.chunk)
        self.merges: list[Merge] = []
        self.blocked: list[Blocked] = []

    def union(self, rule: str, a: str, b: str, *, strict: bool = False, detail: str = "") -> bool:
        ra, rb = self.uf.find(a), self.uf.find(b)
        if ra == rb:
            return False
        guard = blocked(self.profile[ra], self.profile[rb], strict=strict)
        if guard:
            self.blocked.append(Blocked(rule, a, b, guard))
            return False
        root = self.uf.union(a, b)
        self.profile[root] = self.profile[ra].merged(self.profile[rb])
        self.merges.append(Merge(rule, a, b, detail))
        return True

    def union_groups(self, rule: str, groups: dict[object, list[str]]) -> None:
        for key in sorted(groups, key=repr):
            members = sorted(groups[key])
            for other in members[1:]:
                self.union(rule, members[0], other, detail=str(key))


def _scope(m: LocalMention, corpus: Corpus, scopes: dict[str, str]) -> str:
    return scopes.get(corpus.document_of(m), "") if m.kind in SCOPED_KINDS or context.compound_number(m) else ""


def _anaphoric(m: LocalMention, corpus: Corpus) -> bool:
    chunk = corpus.chunks.get(m.chunk)
    return m.kind == "role" and chunk is not None and bool(_ANAPHOR.search(chunk.text[max(0, m.start - 12) : m.start]))


def exact_key(m: LocalMention) -> str:
    """What 'the same name' means per kind: step number, compound number, role name or the normalised text."""
    if m.kind == "role":
        return "role:" + m.role
    if m.kind == "planned_process" and context.step_number(m.text):
        return "step:" + context.step_number(m.text)
    return "name:" + normalise(m.text)


def resolve(
    corpus: Corpus,
    *,
    table: SynonymTable | None = None,
    chunk_vectors: ChunkVectors | None = None,
    threshold: float = 0.92,
    max_chunks: int = 4,
) -> Resolution:
    """Cluster the corpus's entity mentions; deterministic for a given corpus and table."""
    table = table or default_table()
    mentions = [m for m in corpus.mentions if m.kind in CLUSTERED_KINDS]
    scopes = context.programme_scopes(corpus)
    steps = context.chunk_steps(corpus)
    merger = _Merger(mentions, table, corpus)
    anaphora = {m.iri for m in mentions if _anaphoric(m, corpus)}

    groups: dict[object, list[str]] = defaultdict(list)
    for m in mentions:
        if m.iri not in anaphora:
            groups[(m.kind, _scope(m, corpus, scopes), exact_key(m))].append(m.iri)
    merger.union_groups("exact", groups)

    groups = defaultdict(list)
    for m in mentions:
        number = context.compound_number(m)
        if number:
            groups[(m.kind, _scope(m, corpus, scopes), "compound " + number)].append(m.iri)
    merger.union_groups("alias", groups)
    for a, b in context.appositions(corpus):
        merger.union("alias", a.iri, b.iri, detail="apposition")
    groups = defaultdict(list)
    for m in mentions:
        salt = salt_key(m.text) if m.kind != "role" else ""
        if salt:
            groups[(m.kind, _scope(m, corpus, scopes), "salt " + salt)].append(m.iri)
    merger.union_groups("alias", groups)

    groups = defaultdict(list)
    for m in mentions:
        entry = table.lookup(m.kind, m.text)
        if entry and m.kind != "role":
            groups[(m.kind, _scope(m, corpus, scopes), entry.key)].append(m.iri)
    merger.union_groups("synonym", groups)

    promoted = _promote_roles(corpus, mentions, anaphora, steps, merger)
    leftover: dict[object, list[str]] = defaultdict(list)
    for m in mentions:
        if m.iri in anaphora and m.iri not in promoted:
            leftover[exact_key(m)].append(m.iri)
    for key in sorted(leftover):
        anchor = next((x.iri for x in mentions if x.kind == "role" and exact_key(x) == key and x.iri not in anaphora), None)
        members = sorted(leftover[key]) if anchor is None else [anchor, *sorted(leftover[key])]
        for other in members[1:]:
            merger.union("exact", members[0], other, detail=key)

    if chunk_vectors is not None:
        _embedding_backstop(corpus, mentions, merger, scopes, chunk_vectors, threshold, promoted, max_chunks)

    return Resolution(
        {m.iri: m for m in mentions}, merger.uf.groups(), merger.merges, merger.blocked, 0, promoted, scopes, steps
    )


def _promote_roles(
    corpus: Corpus, mentions: list[LocalMention], anaphora: set[str], steps: dict[str, str], merger: _Merger
) -> dict[str, str]:
    """Anaphoric role words -> the substance mention filling that role in the same step and document."""
    substance_at = {(m.chunk, m.start, m.end): m for m in mentions if m.kind == "substance"}
    fillers: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for m in corpus.mentions:
        if m.kind == "role_assignment" and steps.get(m.chunk):
            target = substance_at.get((m.chunk, m.start, m.end))
            if target is not None:
                fillers[(corpus.document_of(m), steps[m.chunk], m.role)].add(target.iri)
    promoted: dict[str, str] = {}
    by_iri = {m.iri: m for m in mentions}
    for iri in sorted(anaphora):
        m = by_iri[iri]
        candidates = sorted(fillers.get((corpus.document_of(m), steps.get(m.chunk, ""), m.role), set()))
        roots = {merger.uf.find(c) for c in candidates}
        if len(roots) == 1:
            target = candidates[0]
            merger.profile[iri] = merger.profile[merger.uf.find(target)]
            if merger.union("role_promotion", target, iri, detail=m.role):
                promoted[iri] = target
    return promoted


def _embedding_backstop(
    corpus: Corpus,
    mentions: list[LocalMention],
    merger: _Merger,
    scopes: dict[str, str],
    chunk_vectors: ChunkVectors,
    threshold: float,
    promoted: dict[str, str],
    max_chunks: int,
) -> None:
    """Merge clusters of one kind whose mean chunk vectors reach the threshold (strict guards).

    Only clusters outside the synonym table take part. A cluster's vector is the mean over its
    first `max_chunks` chunks (by IRI), which bounds the embedding cost while staying deterministic.
    """
    by_iri = {m.iri: m for m in mentions}
    clusters: dict[str, list[LocalMention]] = defaultdict(list)
    for m in mentions:
        if m.kind not in {"role", "batch"} and m.iri not in promoted:
            clusters[merger.uf.find(m.iri)].append(m)
    # a cluster the synonym table names is already canonical: the backstop is for what it does not know
    clusters = defaultdict(list, {root: ms for root, ms in clusters.items() if not merger.profile[root].groups})
    sample = {root: sorted({m.chunk for m in members})[:max_chunks] for root, members in clusters.items()}
    vectors = chunk_vectors(sorted({c for chunks in sample.values() for c in chunks}))
    blocks: dict[tuple[str, str], list[tuple[str, np.ndarray]]] = defaultdict(list)
    for root in sorted(clusters):
        members = clusters[root]
        rows = [vectors[c] for c in sample[root] if c in vectors]
        if not rows:
            continue
        mean = np.mean(rows, axis=0)
        norm = float(np.linalg.norm(mean))
        if norm:
            first = by_iri[root] if root in by_iri else members[0]
            blocks[(first.kind, _scope(first, corpus, scopes))].append((root, mean / norm))
    candidates: list[tuple[float, str, str]] = []
    for key in sorted(blocks):
        items = blocks[key]
        if len(items) < 2:
            continue
        matrix = np.stack([v for _, v in items])
        sims = matrix @ matrix.T
        for i, j in zip(*np.nonzero(np.triu(sims, k=1) >= threshold)):
            candidates.append((-round(float(sims[i, j]), 6), items[i][0], items[j][0]))
    for neg_sim, a, b in sorted(candidates):
        merger.union("embedding", a, b, strict=True, detail=f"{-neg_sim:.4f}")


def merge_counts(merges: Iterable[Merge]) -> dict[str, int]:
    counts = {rule: 0 for rule in RULES}
    for merge in merges:
        counts[merge.rule] = counts.get(merge.rule, 0) + 1
    return counts
