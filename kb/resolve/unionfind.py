"""Union-find whose representative is deterministic: the smallest member key of the set.

A library union-find (networkx.utils.UnionFind) picks roots by set weight, so the root depends on
merge order; resolution needs a representative that depends only on the members, because cluster
ids leak into logs and IRIs.
"""

from __future__ import annotations

from collections.abc import Iterable


class UnionFind:
    def __init__(self, items: Iterable[str] = ()) -> None:
        self._parent: dict[str, str] = {}
        for item in items:
            self.add(item)

    def add(self, item: str) -> None:
        self._parent.setdefault(item, item)

    def find(self, item: str) -> str:
        root = item
        while self._parent[root] != root:
            root = self._parent[root]
        while self._parent[item] != root:
            self._parent[item], item = root, self._parent[item]
        return root

    def union(self, a: str, b: str) -> str:
        """Join two sets; the new root is the smaller of the two roots."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        root, child = (ra, rb) if ra < rb else (rb, ra)
        self._parent[child] = root
        return root

    def groups(self) -> list[list[str]]:
        """Every set as a sorted list, sets ordered by their smallest member."""
        out: dict[str, list[str]] = {}
        for item in sorted(self._parent):
            out.setdefault(self.find(item), []).append(item)
        return sorted(out.values())
