"""Fixtures for the API, browser and MCP tests and the screenshots in docs/web.md.

``build_sample_store`` ingests the generated sample documents (kb.testing), adds a small
hand-built domain layer anchored in two of their chunks (mentions with both Web Annotation
selectors, as docs/model.md describes) and builds the passage index. ``LiveServer`` runs the
real app under waitress on a loopback port.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyoxigraph import Literal, RdfFormat, parse

from kb import vocab as V
from kb.config import Config
from kb.ingest import ingest
from kb.ontology import load_module
from kb.retrieval.index import build_index
from kb.store import GraphStore
from kb.testing import write_docx, write_pdf

OXIME_TEXT = "The oxime was formed in water at 20 °C over 2 h."
SNAR_TEXT = "Step 3 is an SNAr cyclisation in 2-MeTHF."
ENTITY = "https://w3id.org/cmc-kb/id/entity/"

DOMAIN_TTL = """
@prefix obo: <http://purl.obolibrary.org/obo/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix oa: <http://www.w3.org/ns/oa#> .
@prefix e: <https://w3id.org/cmc-kb/id/entity/> .
e:water a obo:CHEBI_24431 ; skos:prefLabel "water" ; rdfs:label "water" ; skos:altLabel "H2O" .
e:methf a obo:CHEBI_24431 ; skos:prefLabel "2-MeTHF" ; rdfs:label "2-MeTHF" ; skos:altLabel "2-methyltetrahydrofuran" .
e:step1 a obo:OBI_0000011 ; skos:prefLabel "Step 1: oxime formation" ; skos:altLabel "oxime formation" ;
   obo:OBI_0000293 e:water ; obo:BFO_0000063 e:step3 .
e:step3 a obo:OBI_0000011 ; skos:prefLabel "Step 3: SNAr cyclisation" ; skos:altLabel "SNAr cyclisation" ;
   obo:OBI_0000293 e:methf .
<OXIME/mention/24-29-CHEBI_24431> oa:hasBody e:water .
<SNAR/mention/33-40-CHEBI_24431> oa:hasBody e:methf .
"""
MENTIONS_TTL = """
@prefix oa: <http://www.w3.org/ns/oa#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix cmc: <https://w3id.org/cmc-kb/ontology#> .
@prefix obo: <http://purl.obolibrary.org/obo/> .
<OXIME/mention/24-29-CHEBI_24431> a oa:Annotation ; cmc:mentionClass obo:CHEBI_24431 ;
   oa:hasTarget <OXIME/mention/24-29-CHEBI_24431/target> .
<OXIME/mention/24-29-CHEBI_24431/target> a oa:SpecificResource ; oa:hasSource <OXIME> ;
   oa:hasSelector <OXIME/mention/24-29-CHEBI_24431/quote> , <OXIME/mention/24-29-CHEBI_24431/position> .
<OXIME/mention/24-29-CHEBI_24431/quote> a oa:TextQuoteSelector ; oa:exact "water" .
<OXIME/mention/24-29-CHEBI_24431/position> a oa:TextPositionSelector ;
   oa:start "24"^^xsd:nonNegativeInteger ; oa:end "29"^^xsd:nonNegativeInteger .
<SNAR/mention/33-40-CHEBI_24431> a oa:Annotation ; cmc:mentionClass obo:CHEBI_24431 ;
   oa:hasTarget <SNAR/mention/33-40-CHEBI_24431/target> .
<SNAR/mention/33-40-CHEBI_24431/target> a oa:SpecificResource ; oa:hasSource <SNAR> ;
   oa:hasSelector <SNAR/mention/33-40-CHEBI_24431/quote> , <SNAR/mention/33-40-CHEBI_24431/position> .
<SNAR/mention/33-40-CHEBI_24431/quote> a oa:TextQuoteSelector ; oa:exact "2-MeTHF" .
<SNAR/mention/33-40-CHEBI_24431/position> a oa:TextPositionSelector ;
   oa:start "33"^^xsd:nonNegativeInteger ; oa:end "40"^^xsd:nonNegativeInteger .
"""


def chunk_with(store: GraphStore, text: str) -> str:
    """IRI of the first chunk (by IRI) whose text is exactly ``text``."""
    sparql = V.sparql_prefixes() + "SELECT ?want ?c WHERE { GRAPH ?g { ?c nif:anchorOf ?t ; cmc:page ?p } FILTER(STR(?t) = ?want) } ORDER BY ?c LIMIT 1"
    found = list(store.query(sparql, bindings={"want": Literal(text)}))  # type: ignore[call-overload]
    if not found:
        raise LookupError(f"no chunk with text {text!r}")
    iri: str = found[0]["c"].value
    return iri


def write_sample(folder: Path) -> Path:
    """The generated sample report as DOCX and PDF (kb.testing), in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    write_docx(folder / "TR-2019-014_v4.docx")
    write_pdf(folder / "TR-2019-014_v4.pdf")
    return folder


def build_sample_store(store: GraphStore, config: Config, folder: Path) -> None:
    """Ingest the sample documents, load the ontology module, add the domain layer, build the index."""
    ingest(store, [write_sample(folder)], config)
    load_module(store)
    replace = {"<OXIME": "<" + chunk_with(store, OXIME_TEXT), "<SNAR": "<" + chunk_with(store, SNAR_TEXT)}
    for ttl, graph in ((DOMAIN_TTL, V.GRAPH_DOMAIN), (MENTIONS_TTL, V.GRAPH_MENTIONS)):
        for key, value in replace.items():
            ttl = ttl.replace(key, value)
        store.add(parse(ttl, format=RdfFormat.TURTLE), graph=graph)
    build_index(store, config)


@dataclass
class LiveServer:
    """A waitress server on 127.0.0.1 with an OS-chosen port, run on a daemon thread."""

    url: str
    server: Any
    thread: threading.Thread

    @classmethod
    def start(cls, app: Any, threads: int = 8) -> LiveServer:
        from waitress import create_server

        server = create_server(app, host="127.0.0.1", port=0, threads=threads)
        port = server.socket.getsockname()[1]
        thread = threading.Thread(target=server.run, daemon=True, name="kb-live-server")
        thread.start()
        return cls(f"http://127.0.0.1:{port}", server, thread)

    def stop(self) -> None:
        self.server.close()
        self.thread.join(timeout=5)


@dataclass
class SampleSite:
    """The sample store served by the real app: what the API, browser and docs fixtures share."""

    url: str
    config: Config
    store: GraphStore
    live: LiveServer

    def __call__(self, path: str) -> str:
        return self.url + path

    @classmethod
    def start(cls, root: Path, **settings: Any) -> SampleSite:
        """Build the sample store under ``root`` (index, report folder) and serve it."""
        from kb.config import load_config
        from kb.store.oxigraph_local import OxigraphLocalStore
        from kb.web.app import create_app

        config = load_config(toml_path=root / "absent.toml", env={}, overrides={
            "store.path": str(root / "store"), "index.path": str(root / "index"), **settings,
        })
        store = OxigraphLocalStore(None)
        build_sample_store(store, config, root / "sample")
        live = LiveServer.start(create_app(config, store))
        return cls(live.url, config, store, live)

    def stop(self) -> None:
        self.live.stop()
