"""The consistency report end to end: verdict, grouping, source links, HTML, QC and `kb check`."""

from __future__ import annotations

import json
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pyoxigraph import RdfFormat

from kb.cli import cli
from kb.cli.common import run_guarded
from kb.ontology import load_module
from kb.report import run_check
from kb.report.qc import ontology_qc
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.vocab import turtle_prefixes

HEADER = (
    turtle_prefixes()
    + "@prefix id: <https://w3id.org/cmc-kb/id/> .\n"
    + "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
)
CHUNK = "https://w3id.org/cmc-kb/id/doc/d1/chunk/0"
CLEAN = HEADER + f"""
GRAPH <urn:kb:graph:lexical/d1> {{
  <https://w3id.org/cmc-kb/id/doc/d1> a doco:Document ; cmc:sha256 "9f2c" ; dcterms:format "application/pdf" .
  <{CHUNK}> a cmc:Chunk ; nif:anchorOf "Step 1: dissolve SM-1 in THF." ; nif:beginIndex 0 ; nif:endIndex 29 ;
      cmc:page 4 ; dcterms:isPartOf <https://w3id.org/cmc-kb/id/doc/d1> ; nif:referenceContext <https://w3id.org/cmc-kb/id/doc/d1> .
}}
GRAPH <urn:kb:graph:mentions> {{
  <{CHUNK}/mention/0-6-x> a oa:Annotation ; oa:hasBody id:step1 ; oa:hasTarget <{CHUNK}/mention/0-6-x/target> .
  <{CHUNK}/mention/0-6-x/target> oa:hasSource <{CHUNK}> ; oa:hasSelector <{CHUNK}/mention/0-6-x/quote> .
  <{CHUNK}/mention/0-6-x/quote> a oa:TextQuoteSelector ; oa:exact "Step 1" .
}}
GRAPH <urn:kb:graph:domain> {{
  id:step1 a cmc:ProcessStep ; skos:prefLabel "step 1" ; obo:OBI_0000293 id:thf .
  id:thf a obo:CHEBI_24431 ; skos:prefLabel "THF" .
}}
"""
PROCESS_AND_MATERIAL = HEADER + "GRAPH <urn:kb:graph:domain> { id:step1 a obo:CHEBI_24431 . }"


class Verdict(HTMLParser):
    """Finds the verdict element and counts sections and links."""

    def __init__(self) -> None:
        super().__init__()
        self.verdict: str | None = None
        self.sections: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id") == "verdict":
            self.verdict = a.get("data-verdict")
        if tag == "section":
            self.sections.append(a.get("id") or "")
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")


def filled(store: OxigraphLocalStore, trig: str) -> OxigraphLocalStore:
    store.raw.load(trig.encode(), format=RdfFormat.TRIG)
    return store


@pytest.mark.parametrize("engine", [pytest.param("hermit", marks=pytest.mark.reasoner), "rl"])
def test_clean_graph_gives_a_clean_report(memory_store, tmp_path: Path, engine: str) -> None:  # type: ignore[no-untyped-def]
    result = run_check(filled(memory_store, CLEAN), engine=engine, out_dir=tmp_path)
    assert result.exit_status == 0
    report = result.report
    assert report["verdict"] == "PASS" and report["consistent"] and report["violations"] == 0
    assert report["shacl"]["groups"] == [] and report["qc"]["problems"] == []
    assert sorted(p.name for p in result.files) == ["report.html", "report.json", "report.md", "report.nt"]
    parser = Verdict()
    parser.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert parser.verdict == "PASS" and parser.sections == ["reasoner", "shacl", "qc"]
    assert json.loads((tmp_path / "report.json").read_text())["verdict"] == "PASS"
    assert "**Verdict: PASS**" in (tmp_path / "report.md").read_text()
    assert "<http://www.w3.org/ns/shacl#conforms> \"true\"" in (tmp_path / "report.nt").read_text()


def test_inconsistent_graph_names_individuals_axioms_and_source_passages(memory_store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_check(filled(memory_store, CLEAN + PROCESS_AND_MATERIAL), engine="rl", out_dir=tmp_path)
    assert result.exit_status == 1
    explanation = result.report["reasoner"]["explanation"]
    [individual] = explanation["individuals"]
    assert individual["label"] == "step 1"
    assert individual["sources"] == [{"chunk": CHUNK, "document": "https://w3id.org/cmc-kb/id/doc/d1", "page": "4", "quote": "Step 1"}]
    assert sorted(explanation["domain_axioms"]) == ["step 1 type chemical entity", "step 1 type process step"]
    assert "continuant disjointWith occurrent" in explanation["ontology_axioms"]
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    parser = Verdict()
    parser.feed(html)
    assert parser.verdict == "FAIL" and CHUNK in parser.links
    # SHACL sees the same defect on the asserted data, grouped under its shape
    [group] = result.report["shacl"]["groups"]
    assert group["severity"] == "Violation" and group["shape_label"] == "EntityWithTwoCategories"


def test_violation_alone_fails_and_warning_alone_passes(memory_store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    warning = HEADER + 'GRAPH <urn:kb:graph:domain> { id:step2 a obo:CHMO_0001640 ; skos:prefLabel "filtration" ; obo:BFO_0000063 id:step1 . }'
    result = run_check(filled(memory_store, CLEAN + warning), engine="rl")
    assert result.report["verdict"] == "PASS" and result.report["shacl"]["counts"]["Warning"] == 1
    violation = HEADER + 'GRAPH <urn:kb:graph:domain> { id:c1 a cmc:Condition ; cmc:conditionKind "time" ; cmc:numericValue 2.0 . }'
    result = run_check(filled(memory_store, violation), engine="rl")
    assert result.exit_status == 1 and result.report["consistent"]


def test_ontology_qc_finds_robot_style_problems(memory_store) -> None:  # type: ignore[no-untyped-def]
    load_module(memory_store)
    defects = HEADER + """GRAPH <urn:kb:graph:ontology> {
      cmc:Unlabelled a owl:Class ; rdfs:subClassOf obo:BFO_0000040 .
      cmc:Twice a owl:Class ; rdfs:label "twice"@en , "two times"@en ; rdfs:subClassOf obo:BFO_0000040 .
      cmc:Spacey a owl:Class ; rdfs:label " spacey"@en ; rdfs:subClassOf obo:BFO_0000040 .
      cmc:Copy a owl:Class ; rdfs:label "process step"@en ; rdfs:subClassOf obo:BFO_0000040 .
      cmc:Orphan a owl:Class ; rdfs:label "orphan"@en ; oboInOwl:hasDbXref "not a curie" .
      cmc:Old a owl:Class ; rdfs:label "old"@en ; owl:deprecated true ; rdfs:subClassOf obo:BFO_0000040 .
    }
    GRAPH <urn:kb:graph:domain> { id:thing a cmc:Old . }"""
    found = {(p.level, p.rule, p.subject.rsplit("#")[-1]) for p in ontology_qc(filled(memory_store, defects))}
    assert ("ERROR", "missing_label", "Unlabelled") in found
    assert ("ERROR", "multiple_labels", "Twice") in found
    assert ("ERROR", "label_whitespace", "Spacey") in found
    assert {("ERROR", "duplicate_label", "Copy"), ("ERROR", "duplicate_label", "ProcessStep")} <= found
    assert ("ERROR", "invalid_xref", "Orphan") in found
    assert ("WARN", "missing_superclass", "Orphan") in found
    assert ("WARN", "missing_definition", "Orphan") in found
    assert ("ERROR", "deprecated_reference", "Old") in found
    assert ("WARN", "missing_definition", "ProcessStep") not in found


def test_kb_check_and_ontology_commands_exit_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def run_guarded_args(args: list[str]) -> int:
        monkeypatch.setattr(sys, "argv", ["kb", *args])
        return run_guarded(cli)

    store_dir = tmp_path / "store"
    assert run_guarded_args(["ontology", "load", "--store", str(store_dir)]) == 0
    store = OxigraphLocalStore(store_dir)
    filled(store, CLEAN)
    store.close()
    out = tmp_path / "report"
    assert run_guarded_args(["check", "--store", str(store_dir), "--reasoner", "rl", "--out", str(out)]) == 0
    assert (out / "report.html").is_file()
    store = OxigraphLocalStore(store_dir)
    filled(store, PROCESS_AND_MATERIAL)
    store.close()
    assert run_guarded_args(["check", "--store", str(store_dir), "--reasoner", "rl", "--out", str(out)]) == 1
    assert run_guarded_args(["check", "--store", str(store_dir), "--reasoner", "pellet"]) == 2
    extra = tmp_path / "extra.ttl"
    extra.write_text(HEADER + 'cmc:Extra a owl:Class ; rdfs:label "extra" .', encoding="utf-8")
    assert run_guarded_args(["ontology", "import", "--store", str(store_dir), "--name", "extra", str(extra)]) == 0
    store = OxigraphLocalStore(store_dir)
    assert "urn:kb:graph:ontology/extra" in store.graphs()
    store.close()

