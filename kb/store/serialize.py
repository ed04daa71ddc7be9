"""Quads to SPARQL Update text and to sorted N-Quads, shared by every adapter."""

from __future__ import annotations

from collections.abc import Iterable

from pyoxigraph import DefaultGraph, Quad


def insert_data(quads: Iterable[Quad], graph: str) -> str:
    """An INSERT DATA request putting the triples of ``quads`` into ``graph``.

    pyoxigraph renders terms in N-Triples syntax, which is valid SPARQL and escapes every literal,
    so no value can break out of the request.
    """
    lines = [f"{q.subject} {q.predicate} {q.object} ." for q in quads]
    return f"INSERT DATA {{ GRAPH <{graph}> {{\n" + "\n".join(lines) + "\n} }"


def delete_data(quads: Iterable[Quad], graph: str) -> str:
    """A DELETE DATA request removing the triples of ``quads`` from ``graph``."""
    lines = [f"{q.subject} {q.predicate} {q.object} ." for q in quads]
    return f"DELETE DATA {{ GRAPH <{graph}> {{\n" + "\n".join(lines) + "\n} }"


def nquad_line(quad: Quad) -> str:
    """One N-Quads line (the default graph has no graph term)."""
    graph = "" if isinstance(quad.graph_name, DefaultGraph) else f" {quad.graph_name}"
    return f"{quad.subject} {quad.predicate} {quad.object}{graph} .\n"


def sorted_nquads(quads: Iterable[Quad]) -> bytes:
    """Canonical, byte-comparable N-Quads: one line per quad, sorted."""
    return "".join(sorted(nquad_line(q) for q in quads)).encode("utf-8")
