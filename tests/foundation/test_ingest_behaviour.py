"""Issue 2: idempotent re-ingest, per-document replacement, determinism, and bad input."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kb import vocab as V
from kb.ingest import ingest
from kb.iris import doc_id
from kb.stats import all_quads
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.store.serialize import sorted_nquads
from kb.testing import (
    SAMPLE,
    Outline,
    write_docx,
    write_encrypted_pdf,
    write_pdf,
    write_zip_bomb_docx,
)

KB = [sys.executable, "-m", "kb"]


def dump(store: OxigraphLocalStore) -> bytes:
    return sorted_nquads(all_quads(store))


def graph_dump(store: OxigraphLocalStore, name: str) -> bytes:
    return sorted_nquads(all_quads(store, V.lexical_graph(doc_id(name))))


def test_reingest_unchanged_is_a_no_op(memory_store, sample_folder: Path, config) -> None:
    ingest(memory_store, [sample_folder], config)
    before = dump(memory_store)
    summary = ingest(memory_store, [sample_folder], config)
    assert (summary.documents, summary.unchanged) == (0, 2)
    assert dump(memory_store) == before


def test_two_runs_from_scratch_identical(sample_folder: Path, config) -> None:
    first, second = OxigraphLocalStore(None), OxigraphLocalStore(None)
    ingest(first, [sample_folder], config)
    ingest(second, [sample_folder], config, workers=2)
    assert dump(first) == dump(second)
    assert len(dump(first)) > 10_000


def test_modified_file_replaces_only_its_graph(tmp_path: Path, config) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    write_docx(folder / "a.docx")
    write_pdf(folder / "b.pdf")
    store = OxigraphLocalStore(None)
    ingest(store, [folder], config)
    pdf_before = graph_dump(store, "b.pdf")
    changed = Outline(
        title=SAMPLE.title,
        report_line="Report TR-2019-014, Version 5, 2019-09-30",
        sections=[(1, "1 Introduction", ["The route now has five steps."])],
    )
    write_docx(folder / "a.docx", changed)
    summary = ingest(store, [folder], config)
    assert (summary.documents, summary.unchanged) == (1, 1)
    assert graph_dump(store, "b.pdf") == pdf_before
    docx_now = graph_dump(store, "a.docx").decode()
    assert "The route now has five steps." in docx_now
    assert "The route to RA-X35 has six steps." not in docx_now
    assert '"5"' in docx_now


def make_bad_files(folder: Path) -> dict[str, str]:
    """Each hostile file and a phrase its error message must contain."""
    (folder / "empty.pdf").write_bytes(b"")
    good = write_pdf(folder / "source.pdf").read_bytes()
    (folder / "source.pdf").unlink()
    (folder / "truncated.pdf").write_bytes(good[: len(good) // 3])
    write_encrypted_pdf(folder / "locked.pdf")
    (folder / "notzip.docx").write_bytes(b"This is plain text pretending to be a Word file.")
    (folder / "tool.exe").write_bytes(b"MZ\x90\x00binary")
    write_zip_bomb_docx(folder / "bomb.docx", expanded_bytes=64 * 1024 * 1024)
    return {
        "empty.pdf": "empty file",
        "truncated.pdf": "PDF",
        "locked.pdf": "encrypted",
        "notzip.docx": "not a zip",
        "tool.exe": "unsupported file type",
        "bomb.docx": "expands to",
    }


def test_bad_input_clear_errors_and_store_untouched(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    good = tmp_path / "good"
    good.mkdir()
    write_docx(good / "a.docx")
    env_args = ["--store", str(store_dir), "--set", "ingest.max_unzipped_bytes=16000000"]
    first = subprocess.run([*KB, "ingest", *env_args, str(good)], capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr
    before = OxigraphLocalStore(store_dir)
    snapshot = dump(before)
    before.close()

    bad = tmp_path / "bad"
    bad.mkdir()
    expectations = make_bad_files(bad)
    files = [str(bad / name) for name in sorted(expectations)]
    result = subprocess.run([*KB, "ingest", *env_args, *files], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == len(expectations), result.stderr
    assert "Traceback" not in result.stderr
    for name, phrase in expectations.items():
        (line,) = [e for e in errors if f"{name}:" in e]
        assert phrase in line, line
    after = OxigraphLocalStore(store_dir)
    assert dump(after) == snapshot
    after.close()


def test_oversized_file_refused(tmp_path: Path, config) -> None:
    path = write_pdf(tmp_path / "big.pdf", extra_pages=3)
    store = OxigraphLocalStore(None)
    summary = ingest(store, [path], config.with_values(ingest__max_file_bytes=1000))
    assert len(summary.failures) == 1 and "over the limit" in summary.failures[0]
    assert store.graphs() == []


def test_page_limit(tmp_path: Path, config) -> None:
    path = write_pdf(tmp_path / "long.pdf", extra_pages=5)
    summary = ingest(OxigraphLocalStore(None), [path], config.with_values(ingest__max_pages=4))
    assert "pages, over the limit of 4" in summary.failures[0]


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_query_cli_lists_sections(tmp_path: Path, sample_folder: Path, fmt: str) -> None:
    store_dir = tmp_path / "store"
    folder = tmp_path / "one"
    shutil.copytree(sample_folder, folder)
    assert subprocess.run([*KB, "ingest", "--store", str(store_dir), str(folder)], capture_output=True, check=False).returncode == 0
    sparql = "SELECT ?path WHERE { GRAPH ?g { ?s a doco:Section ; cmc:sectionPath ?path } } ORDER BY ?path"
    out = subprocess.run([*KB, "query", "--store", str(store_dir), "--format", fmt, sparql], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "2 Results > 2.1 Solvent screen > 2.1.1 Conclusion" in out.stdout


def test_query_cli_syntax_error_is_one_line(tmp_path: Path) -> None:
    out = subprocess.run([*KB, "query", "--store", str(tmp_path / "s"), "SELECT WHERE {"], capture_output=True, text=True, check=False)
    assert out.returncode == 2
    assert out.stderr.startswith("error: SPARQL syntax error") and "Traceback" not in out.stderr


def test_export_sorted_nquads_is_stable(tmp_path: Path, sample_folder: Path) -> None:
    store_dir = tmp_path / "store"
    subprocess.run([*KB, "ingest", "--store", str(store_dir), str(sample_folder)], check=True, capture_output=True)
    one = subprocess.run([*KB, "export", "--store", str(store_dir)], capture_output=True, check=True).stdout
    two = subprocess.run([*KB, "export", "--store", str(store_dir)], capture_output=True, check=True).stdout
    assert one == two
    lines = one.decode().splitlines()
    assert lines == sorted(lines) and len(lines) > 500


def test_replace_graph_writes_differences_and_accepts_blank_nodes(memory_store) -> None:  # type: ignore[no-untyped-def]
    from pyoxigraph import BlankNode, Literal, NamedNode, Quad

    g = "urn:kb:graph:test"
    s, p = NamedNode("http://x/s"), NamedNode("http://x/p")
    memory_store.replace_graph(g, [Quad(s, p, Literal("a")), Quad(s, p, Literal("b"))])
    memory_store.replace_graph(g, [Quad(s, p, Literal("b")), Quad(s, p, Literal("c"))])
    values = sorted(q.object.value for q in memory_store.raw.quads_for_pattern(None, None, None, NamedNode(g)))
    assert values == ["b", "c"]
    memory_store.replace_graph(g, [Quad(s, p, BlankNode("x")), Quad(BlankNode("x"), p, Literal("d"))])
    memory_store.replace_graph(g, [Quad(s, p, Literal("e"))])
    assert [q.object.value for q in memory_store.raw.quads_for_pattern(None, None, None, NamedNode(g))] == ["e"]
