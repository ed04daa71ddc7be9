"""Guards: what two clusters must not disagree on before any rule may merge them.

A cluster's profile is the union of its forms' features. Stated-and-different blocks a merge:
salt vs free base, hydrate vs anhydrate, (R) vs (S), two CAS numbers, two synonym-table groups.
Under the embedding backstop two more guards apply: forms whose letter skeletons match or contain
one another must carry the same digits and locants (THF vs 2-MeTHF, 3-bromo vs 3,5-dibromo, lot
0042 vs 0043, compound 6 vs compound 7), and clusters named in one chunk are different things.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kb.resolve.normalise import Features


@dataclass(frozen=True)
class Profile:
    numbered: frozenset[tuple[str, tuple[str, ...]]] = frozenset()  # (skeleton, digits) per form
    salt: frozenset[str] = frozenset()
    hydrate: frozenset[str] = frozenset()
    stereo: frozenset[str] = frozenset()
    cas: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    chunks: frozenset[str] = field(default=frozenset(), compare=False)

    @classmethod
    def of(cls, feats: Features, group: str, chunk: str) -> Profile:
        return cls(frozenset([(feats.skeleton, feats.numbers)]), feats.salt, feats.hydrate, feats.stereo, feats.cas,
                   frozenset([group]) if group else frozenset(), frozenset([chunk]))

    def merged(self, other: Profile) -> Profile:
        return replace(
            self, numbered=self.numbered | other.numbered, salt=self.salt | other.salt, hydrate=self.hydrate | other.hydrate,
            stereo=self.stereo | other.stereo, cas=self.cas | other.cas, groups=self.groups | other.groups,
            chunks=self.chunks | other.chunks,
        )


def _conflict(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a) and bool(b) and a != b


def _related(a: str, b: str) -> bool:
    """Skeletons that name variants of one thing: equal, or one inside the other ('thf' in 'methf')."""
    return a == b or (min(len(a), len(b)) >= 3 and (a in b or b in a))


def blocked(a: Profile, b: Profile, *, strict: bool = False) -> str:
    """The guard that forbids merging two clusters ('' if none); `strict` adds the backstop guards."""
    for name in ("groups", "cas", "salt", "hydrate", "stereo"):
        if _conflict(getattr(a, name), getattr(b, name)):
            return name
    if strict:
        if any(_related(sa, sb) and na != nb for sa, na in a.numbered for sb, nb in b.numbered):
            return "numbers"
        if a.chunks & b.chunks:
            return "same_chunk"
    return ""
