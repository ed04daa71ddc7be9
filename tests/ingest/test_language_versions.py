"""Issue 4: language tags per chunk and on the document; version chains by rule and by manifest."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from kb import testing_formats as F
from kb import vocab as V
from kb.errors import ConfigError
from kb.ingest import ingest
from kb.stages.lexical.versions import find_manifest, link_versions
from kb.stats import all_quads
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.testing import SAMPLE, write_docx, write_pdf


def test_german_chunks_tagged_de_and_document_language(tmp_path: Path, config) -> None:
    F.write_german_pdf(tmp_path / "bericht.pdf")
    write_pdf(tmp_path / "report.pdf")
    store = OxigraphLocalStore(None)
    ingest(store, [tmp_path], config)
    anchors = [q.object for q in all_quads(store) if q.predicate == V.NIF_ANCHOR_OF]
    german = [a for a in anchors if a.value in F.GERMAN_TEXT[1:]]
    assert len(german) == 3 and {a.language for a in german} == {"de"}
    english = [a for a in anchors if "SNAr cyclisation" in a.value]
    assert english and {a.language for a in english} == {"en"}
    numeric = [a for a in anchors if a.value.startswith("Report TR-2019-014")]
    assert numeric and numeric[0].language is None  # too few words to judge: left untagged
    languages = {(q.subject.value.rsplit("/", 1)[-1], q.object.value) for q in all_quads(store) if q.predicate == V.LANGUAGE}
    assert {lang for _, lang in languages} == {"de", "en"} and len(languages) == 2


def version_links(store: OxigraphLocalStore) -> list[tuple[str, str]]:
    names = {q.subject.value: q.object.value for q in all_quads(store) if q.predicate == V.FILE_NAME}
    return sorted(
        (names[q.subject.value], names[q.object.value])
        for q in all_quads(store, V.GRAPH_VERSIONS)
        if q.predicate == V.WAS_REVISION_OF
    )


@pytest.fixture
def versions_corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for number, date in [(1, "2019-01-10"), (2, "2019-03-01"), (10, "2019-09-01")]:
        write_pdf(folder / f"tr014_v{number}.pdf", replace(SAMPLE, report_line=f"Report TR-2019-014, Version {number}, {date}"))
    write_docx(folder / "other.docx", replace(SAMPLE, title="Other", report_line="Report TR-2020-001, Version 1, 2020-01-01"))
    write_pdf(folder / "appendix.pdf", replace(SAMPLE, title="Appendix", report_line="Data for report TR-2019-014"))
    return folder


def test_versions_linked_in_numeric_order_by_rule(versions_corpus: Path, config) -> None:
    store = OxigraphLocalStore(None)
    ingest(store, [versions_corpus], config)
    series = link_versions(store, config["base_iri"], find_manifest([versions_corpus], "versions.toml"))
    assert [(s.key, s.rule) for s in series] == [("TR-2019-014", "report-id")]
    assert version_links(store) == [("tr014_v10.pdf", "tr014_v2.pdf"), ("tr014_v2.pdf", "tr014_v1.pdf")]
    versions = {q.object.value for q in all_quads(store, V.GRAPH_VERSIONS) if q.predicate == V.VERSION}
    assert versions == {"1", "2", "10"}
    before = all_quads(store)
    link_versions(store, config["base_iri"], find_manifest([versions_corpus], "versions.toml"))
    assert all_quads(store) == before


def test_manifest_overrides_the_rule(versions_corpus: Path, config) -> None:
    (versions_corpus / "versions.toml").write_text(
        '[[series]]\nid = "TR-2019-014"\nversions = [\n'
        '  { file = "appendix.pdf", version = "0.9", date = "2018-12-01" },\n'
        '  { file = "tr014_v1.pdf" },\n  { file = "tr014_v10.pdf" },\n]\nexclude = ["tr014_v2.pdf"]\n'
    )
    store = OxigraphLocalStore(None)
    ingest(store, [versions_corpus], config)
    series = link_versions(store, config["base_iri"], find_manifest([versions_corpus], "versions.toml"))
    assert [(s.key, s.rule) for s in series] == [("TR-2019-014", "manifest")]
    assert version_links(store) == [("tr014_v1.pdf", "appendix.pdf"), ("tr014_v10.pdf", "tr014_v1.pdf")]
    appendix = next(q.subject for q in all_quads(store) if q.predicate == V.FILE_NAME and q.object.value == "appendix.pdf")
    stated = {(q.predicate, q.object.value) for q in all_quads(store, V.GRAPH_VERSIONS) if q.subject == NamedNode(appendix.value)}
    assert (V.VERSION, "0.9") in stated and (V.DATE, "2018-12-01") in stated


def test_malformed_manifest_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "versions.toml").write_text('[[series]]\nid = "X"\nversions = [{ version = "1" }]\n')
    with pytest.raises(ConfigError, match=r"versions.toml: series\[0\].versions\[0\] needs a 'file'"):
        find_manifest([tmp_path], "versions.toml")
