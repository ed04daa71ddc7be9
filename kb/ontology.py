"""The project's OWL module and external ontologies, loaded into named graphs of their own.

The own module (``ontologies/*.ttl``) goes to ``urn:kb:graph:ontology``; a full external ontology
such as PROCO goes to ``urn:kb:graph:ontology/<name>``, so it can be dropped or replaced alone.
Blank nodes (restrictions in external ontologies) get labels derived from the file's hash and
their order of appearance, so loading the same file twice gives byte-identical exports.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pyoxigraph import BlankNode, NamedNode, Quad, RdfFormat, Triple, parse

from kb.errors import ConfigError, InputFileError
from kb.store.protocol import GraphStore
from kb.vocab import GRAPH_ONTOLOGY

ONTOLOGY_DIR = Path(__file__).resolve().parent.parent / "ontologies"
MODULE_FILES: tuple[str, ...] = ("cmc.ttl", "cmc-lexical.ttl")
FORMATS: dict[str, RdfFormat] = {
    ".ttl": RdfFormat.TURTLE,
    ".owl": RdfFormat.RDF_XML,
    ".rdf": RdfFormat.RDF_XML,
    ".xml": RdfFormat.RDF_XML,
    ".nt": RdfFormat.N_TRIPLES,
}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def module_paths() -> list[Path]:
    """The own module's files, in import order (domain module first)."""
    return [ONTOLOGY_DIR / name for name in MODULE_FILES]


def ontology_graph(name: str | None = None) -> str:
    """Named graph of the own module (``name=None``) or of one imported ontology."""
    if name is None:
        return GRAPH_ONTOLOGY
    if not _NAME.match(name):
        raise ConfigError(f"ontology name {name!r}: use letters, digits, '.', '_' or '-'")
    return f"{GRAPH_ONTOLOGY}/{name}"


def read_triples(path: Path) -> list[Triple]:
    """Parse one ontology file (Turtle, RDF/XML or N-Triples) with deterministic blank-node labels."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputFileError(str(path), f"unknown ontology format; use one of {', '.join(sorted(FORMATS))}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputFileError(str(path), f"cannot read: {exc.strerror}") from exc
    prefix = "o" + hashlib.sha256(data).hexdigest()[:12]
    labels: dict[str, BlankNode] = {}

    def stable(term: Any) -> Any:
        if isinstance(term, BlankNode):
            if term.value not in labels:
                labels[term.value] = BlankNode(f"{prefix}b{len(labels)}")
            return labels[term.value]
        return term

    try:
        return [
            Triple(stable(t.subject), t.predicate, stable(t.object))
            for t in parse(data, format=fmt, base_iri=path.resolve().as_uri())
        ]
    except SyntaxError as exc:
        raise InputFileError(str(path), f"not valid {fmt}: {exc}") from exc


def _quads(triples: Iterable[Triple], graph: str) -> list[Quad]:
    target = NamedNode(graph)
    return [Quad(t.subject, t.predicate, t.object, target) for t in triples]


def _replace(store: GraphStore, graph: str, triples: list[Triple]) -> int:
    """Drop then add, not ``replace_graph``: SPARQL INSERT DATA (which replace_graph uses) mints
    fresh blank nodes, and we want the stable labels given above to reach the store."""
    store.drop_graph(graph)
    return store.add(_quads(triples, graph), graph=graph)


def load_module(store: GraphStore, paths: Iterable[Path] | None = None) -> int:
    """Replace ``urn:kb:graph:ontology`` with the own module (or the given files); returns triples."""
    triples: list[Triple] = []
    for path in paths or module_paths():
        triples.extend(read_triples(path))
    return _replace(store, GRAPH_ONTOLOGY, triples)


def import_ontology(store: GraphStore, path: Path, *, name: str | None = None) -> str:
    """Load a full external ontology into ``urn:kb:graph:ontology/<name>``; returns the graph IRI."""
    graph = ontology_graph(name or path.stem)
    triples = read_triples(path)
    _replace(store, graph, triples)
    return graph


def ontology_graphs(store: GraphStore) -> list[str]:
    """Every ontology graph in the store: the own module and each imported ontology, sorted."""
    return [g for g in store.graphs() if g == GRAPH_ONTOLOGY or g.startswith(GRAPH_ONTOLOGY + "/")]
