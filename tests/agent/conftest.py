"""A tiny, hand-built two-layer graph: the sample documents plus a domain layer anchored in them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import RdfFormat, parse

from kb import vocab as V
from kb.config import Config
from kb.ingest import ingest
from kb.store.oxigraph_local import OxigraphLocalStore

DOMAIN_TTL = """
@prefix obo: <http://purl.obolibrary.org/obo/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix oa: <http://www.w3.org/ns/oa#> .
@prefix e: <https://w3id.org/cmc-kb/id/entity/> .
e:water a obo:CHEBI_24431 ; skos:prefLabel "water" ; skos:altLabel "H2O" .
e:methf a obo:CHEBI_24431 ; skos:prefLabel "2-MeTHF" ; skos:altLabel "2-methyltetrahydrofuran" , "MeTHF" .
e:thf a obo:CHEBI_24431 ; skos:prefLabel "THF" .
e:step1 a obo:OBI_0000011 ; skos:prefLabel "Step 1: oxime formation" ; skos:altLabel "oxime formation" ;
   obo:OBI_0000293 e:water ; obo:BFO_0000063 e:step3 .
e:step3 a obo:OBI_0000011 ; skos:prefLabel "Step 3: SNAr cyclisation" ; skos:altLabel "SNAr cyclisation" ;
   obo:OBI_0000293 e:methf , e:water .
e:s1 rdf:subject e:step1 ; rdf:predicate obo:OBI_0000293 ; rdf:object e:water ; prov:wasDerivedFrom <MENTION_WATER_1> .
e:s2 rdf:subject e:step3 ; rdf:predicate obo:OBI_0000293 ; rdf:object e:methf ; prov:wasDerivedFrom <MENTION_METHF_3> .
e:s3 rdf:subject e:step3 ; rdf:predicate obo:OBI_0000293 ; rdf:object e:water ; prov:wasDerivedFrom <MENTION_METHF_3> .
<MENTION_WATER_1> oa:hasBody e:water .
<MENTION_METHF_3> oa:hasBody e:methf .
"""
MENTIONS_TTL = """
@prefix oa: <http://www.w3.org/ns/oa#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<MENTION_WATER_1> a oa:Annotation ; oa:hasTarget <MENTION_WATER_1/t> .
<MENTION_WATER_1/t> oa:hasSource <CHUNK_OXIME> ; oa:hasSelector <MENTION_WATER_1/p> .
<MENTION_WATER_1/p> a oa:TextPositionSelector ; oa:start "22"^^xsd:nonNegativeInteger ; oa:end "27"^^xsd:nonNegativeInteger .
<MENTION_METHF_3> a oa:Annotation ; oa:hasTarget <MENTION_METHF_3/t> .
<MENTION_METHF_3/t> oa:hasSource <CHUNK_SNAR> ; oa:hasSelector <MENTION_METHF_3/p> .
<MENTION_METHF_3/p> a oa:TextPositionSelector ; oa:start "34"^^xsd:nonNegativeInteger ; oa:end "41"^^xsd:nonNegativeInteger .
"""


def chunk_with(store: OxigraphLocalStore, text: str) -> str:
    sparql = V.sparql_prefixes() + f'SELECT ?c WHERE {{ GRAPH ?g {{ ?c nif:anchorOf ?t ; cmc:page ?p }} FILTER(STR(?t) = "{text}") }} ORDER BY ?c LIMIT 1'
    rows = list(store.query(sparql))
    return rows[0]["c"].value


@pytest.fixture
def two_layer_store(sample_folder: Path, config: Config) -> OxigraphLocalStore:
    store = OxigraphLocalStore(None)
    ingest(store, [sample_folder], config)
    oxime = chunk_with(store, "The oxime was formed in water at 20 °C over 2 h.")
    snar = chunk_with(store, "Step 3 is an SNAr cyclisation in 2-MeTHF.")
    replace = {"MENTION_WATER_1": oxime + "/mention/22-27-CHEBI_24431", "MENTION_METHF_3": snar + "/mention/34-41-CHEBI_24431",
               "CHUNK_OXIME": oxime, "CHUNK_SNAR": snar}
    for ttl, graph in ((DOMAIN_TTL, V.GRAPH_DOMAIN), (MENTIONS_TTL, V.GRAPH_MENTIONS)):
        for key, value in replace.items():
            ttl = ttl.replace(key, value)
        store.add(parse(ttl, format=RdfFormat.TURTLE), graph=graph)
    return store
