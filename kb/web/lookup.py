"""Read-only views of the graph for the API, the pages and the MCP tools: entities and documents.

Each function takes the store and IRIs, binds values through ``bindings=`` and returns plain
JSON-ready dicts sorted so that the same store state always gives the same output.
"""

from __future__ import annotations

from typing import Any

from pyoxigraph import Literal, NamedNode

from kb import vocab as V
from kb.store import GraphStore
from kb.web.errors import WebError

P = V.sparql_prefixes()

ENTITY_FACTS = P + """
SELECT ?e ?p ?o WHERE { GRAPH ?g { ?e ?p ?o } FILTER(?g IN (<urn:kb:graph:domain>, <urn:kb:graph:inferred>)) }
"""
ENTITY_INCOMING = P + """
SELECT DISTINCT ?e ?s ?p WHERE { GRAPH <urn:kb:graph:domain> { ?s ?p ?e FILTER(?p != oa:hasBody) } }
"""
LABELS = P + """
SELECT ?x ?label WHERE {
  GRAPH ?g { ?x skos:prefLabel|rdfs:label ?label }
  FILTER(?g IN (<urn:kb:graph:domain>, <urn:kb:graph:ontology>))
}
"""
ENTITY_MENTIONS = P + """
SELECT ?e ?mention ?chunk ?quote ?start ?end ?text ?doc ?title ?version ?page ?path WHERE {
  GRAPH ?anchors { ?mention oa:hasBody ?e }
  GRAPH <urn:kb:graph:mentions> {
    ?mention oa:hasTarget ?t . ?t oa:hasSource ?chunk .
    OPTIONAL { ?t oa:hasSelector ?qs . ?qs a oa:TextQuoteSelector ; oa:exact ?quote }
    OPTIONAL { ?t oa:hasSelector ?ps . ?ps a oa:TextPositionSelector ; oa:start ?start ; oa:end ?end }
  }
  GRAPH ?lex {
    ?chunk nif:referenceContext ?doc ; nif:anchorOf ?text ; cmc:page ?page .
    ?doc dcterms:title ?title . OPTIONAL { ?doc pav:version ?version }
    OPTIONAL { ?chunk dcterms:isPartOf ?s . ?s cmc:sectionPath ?path }
  }
}
"""
ENTITY_SEARCH = P + """
SELECT DISTINCT ?q ?e ?label WHERE {
  GRAPH <urn:kb:graph:domain> { ?e skos:prefLabel ?label . ?e skos:prefLabel|skos:altLabel ?name }
  FILTER(CONTAINS(LCASE(STR(?name)), LCASE(?q)))
}
ORDER BY ?label ?e
LIMIT 50
"""
DOCUMENTS = P + """
SELECT ?doc ?g ?title ?version ?date ?file ?pages ?identifier WHERE {
  GRAPH ?g {
    ?doc a doco:Document ; dcterms:title ?title .
    OPTIONAL { ?doc pav:version ?version } OPTIONAL { ?doc dcterms:date ?date }
    OPTIONAL { ?doc cmc:fileName ?file } OPTIONAL { ?doc prism:pageCount ?pages }
    OPTIONAL { ?doc dcterms:identifier ?identifier }
  }
  FILTER(STRSTARTS(STR(?g), "urn:kb:graph:lexical/"))
}
"""
SECTIONS = P + """
SELECT ?g ?section ?title ?path ?level ?parent ?begin WHERE {
  GRAPH ?g { ?section a doco:Section ; dcterms:isPartOf ?parent .
    OPTIONAL { ?section dcterms:title ?title } OPTIONAL { ?section cmc:sectionPath ?path }
    OPTIONAL { ?section cmc:headingLevel ?level } OPTIONAL { ?section nif:beginIndex ?begin } }
}
"""
CHUNKS = P + """
SELECT ?g ?chunk ?index ?page ?kind ?text ?section ?begin ?end WHERE {
  GRAPH ?g { ?chunk a cmc:Chunk ; cmc:readingIndex ?index ; nif:anchorOf ?text .
    OPTIONAL { ?chunk cmc:page ?page } OPTIONAL { ?chunk cmc:chunkKind ?kind }
    OPTIONAL { ?chunk dcterms:isPartOf ?section }
    OPTIONAL { ?chunk nif:beginIndex ?begin ; nif:endIndex ?end } }
}
"""
VERSIONS = P + """
SELECT DISTINCT ?doc ?other ?rel WHERE {
  GRAPH <urn:kb:graph:versions> {
    { ?doc dcterms:isVersionOf ?series . ?other dcterms:isVersionOf ?series BIND("series" AS ?rel) }
    UNION { ?doc prov:wasRevisionOf ?other BIND("revision of" AS ?rel) }
    UNION { ?other prov:wasRevisionOf ?doc BIND("revised by" AS ?rel) }
  }
  FILTER(?other != ?doc)
}
"""


def value(term: Any) -> Any:
    """JSON value of an RDF term: integers and decimals as numbers, everything else as text."""
    if term is None:
        return None
    if isinstance(term, Literal) and term.datatype.value.endswith(("#integer", "#nonNegativeInteger", "#int")):
        return int(term.value)
    return term.value


def rows(store: GraphStore, sparql: str, **bindings: Any) -> list[dict[str, Any]]:
    """Solutions as dicts of JSON values; IRIs given as str are bound as named nodes."""
    bound = {k: (NamedNode(v) if isinstance(v, str) else v) for k, v in bindings.items()}
    result = store.query(sparql, bindings=bound)
    names = [v.value for v in result.variables]  # type: ignore[union-attr]
    return [{n: value(row[n]) for n in names} for row in result]  # type: ignore[union-attr]


def labels(store: GraphStore) -> dict[str, str]:
    """Preferred label (or rdfs:label) per IRI, from the domain and ontology graphs."""
    found: dict[str, str] = {}
    for row in sorted(rows(store, LABELS), key=lambda r: (r["x"], r["label"])):
        found.setdefault(row["x"], row["label"])
    return found


def entity_iri(base_iri: str, key: str) -> str:
    return f"{base_iri}entity/{key}"


def find_entities(store: GraphStore, text: str) -> list[dict[str, str]]:
    """Canonical entities whose preferred or alternative label contains ``text``."""
    return [{"iri": r["e"], "label": r["label"]} for r in rows(store, ENTITY_SEARCH, q=Literal(text))]


def entity(store: GraphStore, iri: str) -> dict[str, Any]:
    """One canonical entity: types, labels, relations (both directions) and its mentions."""
    facts = rows(store, ENTITY_FACTS, e=iri)
    if not facts:
        raise WebError(f"entity <{iri}> is not in the domain graph", status=404, code="KB710")
    names = labels(store)
    types = sorted({f["o"] for f in facts if f["p"] == V.TYPE.value})
    pref = sorted(f["o"] for f in facts if f["p"] == V.PREF_LABEL.value)
    alt = sorted({f["o"] for f in facts if f["p"] == V.ALT_LABEL.value})
    described = {V.TYPE.value, V.PREF_LABEL.value, V.ALT_LABEL.value, V.LABEL.value}
    outgoing = sorted(
        ({"predicate": f["p"], "predicate_label": names.get(f["p"], ""), "direction": "out",
          "other": f["o"], "other_label": names.get(f["o"], "")} for f in facts if f["p"] not in described),
        key=lambda r: (r["predicate"], r["other"]),
    )
    incoming = sorted(
        ({"predicate": r["p"], "predicate_label": names.get(r["p"], ""), "direction": "in",
          "other": r["s"], "other_label": names.get(r["s"], "")} for r in rows(store, ENTITY_INCOMING, e=iri)),
        key=lambda r: (r["predicate"], r["other"]),
    )
    mentions = [mention_view(r) for r in rows(store, ENTITY_MENTIONS, e=iri)]
    mentions.sort(key=lambda m: (m["title"], m["version"], m["page"], m["chunk"], m["mention"]))
    versions = sorted({(m["title"], m["version"]) for m in mentions})
    return {
        "iri": iri,
        "label": pref[0] if pref else names.get(iri, iri),
        "labels": {"pref": pref, "alt": alt},
        "types": [{"iri": t, "label": names.get(t, "")} for t in types],
        "relations": outgoing + incoming,
        "mentions": mentions,
        "versions": [{"title": t, "version": v} for t, v in versions],
    }


def mention_view(row: dict[str, Any]) -> dict[str, Any]:
    """A mention with its quote: the TextQuoteSelector, else the positioned span of the chunk."""
    quote = row["quote"]
    if quote is None and row["start"] is not None:
        quote = row["text"][row["start"]:row["end"]]
    return {
        "mention": row["mention"], "chunk": row["chunk"], "quote": quote or "", "document": row["doc"],
        "title": row["title"], "version": row["version"] or "", "page": row["page"],
        "section_path": row["path"] or "", "start": row["start"], "end": row["end"],
    }


def documents(store: GraphStore) -> list[dict[str, Any]]:
    """Every document in the lexical layer, sorted by title, version and IRI."""
    found = []
    for r in rows(store, DOCUMENTS):
        found.append({
            "id": r["g"].removeprefix(V.GRAPH_LEXICAL_PREFIX), "iri": r["doc"], "graph": r["g"], "title": r["title"],
            "version": r["version"] or "", "date": r["date"] or "", "file": r["file"] or "",
            "pages": r["pages"], "identifier": r["identifier"] or "",
        })
    return sorted(found, key=lambda d: (d["title"], d["version"], d["iri"]))


def document(store: GraphStore, doc_id: str) -> dict[str, Any]:
    """One document: metadata, section tree, chunks in reading order and related versions."""
    graph = V.lexical_graph(doc_id)
    meta = [d for d in documents(store) if d["graph"] == graph]
    if not meta:
        raise WebError(f"document {doc_id!r} is not in the store", status=404, code="KB711",
                       hint="GET /api/documents lists the documents")
    doc = meta[0]
    sections = sorted(rows(store, SECTIONS, g=graph), key=lambda s: (s["begin"] or 0, s["section"]))
    chunks = sorted(rows(store, CHUNKS, g=graph), key=lambda c: c["index"])
    titles = {d["iri"]: d for d in documents(store)}
    versions = sorted(
        ({"relation": r["rel"], "iri": r["other"], "id": titles[r["other"]]["id"], "title": titles[r["other"]]["title"],
          "version": titles[r["other"]]["version"]} for r in rows(store, VERSIONS, doc=doc["iri"]) if r["other"] in titles),
        key=lambda v: (v["version"], v["iri"], v["relation"]),
    )
    return doc | {
        "sections": [{"iri": s["section"], "title": s["title"] or "", "path": s["path"] or "", "level": s["level"],
                      "parent": s["parent"]} for s in sections],
        "chunks": [chunk_view(c) for c in chunks],
        "versions": versions,
    }


def chunk_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"iri": row["chunk"], "index": row["index"], "page": row["page"], "kind": row["kind"] or "",
            "section": row["section"] or "", "text": row["text"], "begin": row["begin"], "end": row["end"]}


def chunk(store: GraphStore, doc_id: str, index: int) -> dict[str, Any]:
    """One chunk of a document by reading index, with its document's title and version."""
    doc = document(store, doc_id)
    hit = [c for c in doc["chunks"] if c["index"] == index]
    if not hit:
        raise WebError(f"document {doc_id!r} has no chunk {index}", status=404, code="KB712")
    paths = {s["iri"]: s["path"] for s in doc["sections"]}
    return hit[0] | {"document": doc["iri"], "document_id": doc_id, "title": doc["title"], "version": doc["version"],
                     "section_path": paths.get(hit[0]["section"], "")}
