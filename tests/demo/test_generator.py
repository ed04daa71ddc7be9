"""Determinism, schema, metadata, hard cases and the special pages of the demo programme."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import docx
import jsonschema
import pymupdf
import pytest
from click.testing import CliRunner
from pptx import Presentation

from kb.cli.demo import demo
from kb.demo.generate import generate
from kb.errors import ConfigError

from .readback import normalise, pdf_page_texts

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "ground-truth.schema.json"
FILE_NAME = re.compile(r"^(?P<rid>[A-Z]{2}-(\d{4}-\d{2,3}|\d{4}))_v(?P<v>\d+)_(?P<date>\d{4}-\d{2}-\d{2})")


def test_same_seed_gives_byte_identical_files(demo_dir: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    generate(again, seed=7, scale=1)
    first = sorted(p.name for p in demo_dir.iterdir())
    assert first == sorted(p.name for p in again.iterdir())
    differing = [name for name in first if (demo_dir / name).read_bytes() != (again / name).read_bytes()]
    assert differing == []


def test_ground_truth_validates_against_schema(ground_truth: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(ground_truth, schema, cls=jsonschema.Draft202012Validator)


def test_corpus_shape_matches_the_seed_testbed(ground_truth: dict[str, Any]) -> None:
    docs = ground_truth["documents"]
    kinds = {d["kind"] for d in docs}
    assert 34 <= len(docs) <= 42
    assert sum(d["pages"] for d in docs) >= 300
    assert {"technical_report", "slide_deck", "slide_deck_pdf", "appendix", "analytical_method", "scan",
            "german_report", "campaign_summary"} <= kinds
    assert len(ground_truth["series"]) == 2 and all(len(s["versions"]) >= 8 for s in ground_truth["series"])
    substances = [e for e in ground_truth["entities"] if e["type"] == "chemical_substance"]
    assert sum(not e["in_lexicon"] for e in substances) >= len(substances) / 5
    assert {e["type"] for e in ground_truth["entities"]} == {
        "chemical_substance", "planned_process", "unit_operation", "equipment", "role", "impurity",
        "analytical_method"}


def test_series_versions_are_ordered_and_named(demo_dir: Path, ground_truth: dict[str, Any]) -> None:
    for series in ground_truth["series"]:
        versions = series["versions"]
        assert [v["version"] for v in versions] == list(range(1, len(versions) + 1))
        assert [v["date"] for v in versions] == sorted(v["date"] for v in versions)
        for v in versions:
            match = FILE_NAME.match(v["file"])
            assert match and match["rid"] == series["report_id"] and int(match["v"]) == v["version"]
            props = docx.Document(str(demo_dir / v["file"])).core_properties
            assert (props.identifier, props.version, props.revision) == (
                series["report_id"], f"Version {v['version']}", v["version"])
            assert props.created.date().isoformat() == v["date"]


def test_pdf_and_pptx_carry_metadata(demo_dir: Path, ground_truth: dict[str, Any]) -> None:
    for d in ground_truth["documents"]:
        path = demo_dir / d["file"]
        if d["format"] == "pdf":
            with pymupdf.open(path) as pdf:
                assert pdf.metadata["title"] == d["title"]
                assert d["report_id"] in pdf.metadata["subject"]
                assert pdf.metadata["creationDate"].startswith("D:" + d["date"].replace("-", ""))
        elif d["format"] == "pptx":
            props = Presentation(str(path)).core_properties
            assert props.identifier == d["report_id"] and props.title == d["title"]


def test_hard_cases_are_present(ground_truth: dict[str, Any]) -> None:
    hard = ground_truth["hard_cases"]
    aliases = {a["entity"]: set(a["forms"]) for a in hard["alias_groups"]}
    assert {"acetonitrile", "MeCN", "ACN", "CH3CN"} <= aliases["acetonitrile"]
    assert {"2-MeTHF", "MeTHF", "2-methyltetrahydrofuran"} <= aliases["2-methf"]
    mentioned = {m["entity"] for m in ground_truth["mentions"]}
    facts = ground_truth["facts"]
    for pair in hard["near_misses"]:
        if pair["kind"] == "substance":
            assert {pair["a"], pair["b"]} <= mentioned
        else:
            a, b = pair["a"], pair["b"]
            assert len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1
            values = {f["subject"]: f["value"] for f in facts if f["kind"] == "batch yield"}
            assert a in values and b in values
    by_id = {f["id"]: f for f in facts}
    table_only = [by_id[i] for i in hard["table_only_facts"]]
    prose = {(f["kind"], f["subject"], f["value"]) for f in facts if f["table"] is None}
    assert len(table_only) > 50
    assert all(f["table"] and (f["kind"], f["subject"], f["value"]) not in prose for f in table_only)
    history = {h["key"]: h for h in ground_truth["fact_history"]}
    assert set(hard["changed_facts"]) == set(history)
    solvent_changes = [h for h in history.values() if h["kind"] == "solvent"]
    assert any(c["previous"] == "tetrahydrofuran" and c["value"] == "2-methyltetrahydrofuran"
               for h in solvent_changes for c in h["changes"])
    for step in hard["prose_only_steps"]:
        assert not [f for f in facts if f["table"] and f["subject"].startswith(step)]
        assert [f for f in facts if f["subject"].startswith(step) and f["table"] is None]


def test_list_questions_have_multi_member_answers(ground_truth: dict[str, Any]) -> None:
    classes = {q["class"] for q in ground_truth["question_classes"]}
    assert classes == {"overlap", "fan-in", "connectivity", "exclusivity", "counting", "evolution"}
    water_methf = next(q for q in ground_truth["question_classes"] if "water and 2-MeTHF" in q["question"])
    assert len(water_methf["answer"]) >= 2


def test_scanned_page_is_image_only(demo_dir: Path, ground_truth: dict[str, Any]) -> None:
    for scan in ground_truth["scans"]:
        with pymupdf.open(demo_dir / scan["document"]) as pdf:
            page = pdf[scan["page"] - 1]
            assert page.get_text().strip() == ""
            (xref, *_), = page.get_images()
            assert pdf.extract_image(xref)["width"] >= 2400  # 300 DPI on A4


def test_german_page_is_german(demo_dir: Path, ground_truth: dict[str, Any]) -> None:
    (german,) = ground_truth["german"]
    text = pdf_page_texts(demo_dir / german["document"])[german["page"] - 1]
    assert {"wurde", "mit", "und", "Die"} <= set(text.split())


def test_multi_column_page_defeats_naive_order(demo_dir: Path, ground_truth: dict[str, Any]) -> None:
    (order,) = ground_truth["reading_order"]
    with pymupdf.open(demo_dir / order["document"]) as pdf:
        naive = normalise(pdf[order["page"] - 1].get_text())
    positions = [naive.find(normalise(block)) for block in order["blocks"]]
    assert -1 not in positions
    assert positions != sorted(positions)


def test_cli_generates_and_caches(demo_dir: Path) -> None:
    result = CliRunner().invoke(demo, ["generate", str(demo_dir), "--seed", "7", "--scale", "1"])
    assert result.exit_code == 0 and "up to date" in result.output
    with pytest.raises(ConfigError):
        generate(demo_dir / "x", seed=7, scale=0)


@pytest.mark.slow
def test_regenerating_with_another_seed_replaces_the_files(tmp_path: Path) -> None:
    out = tmp_path / "p"
    generate(out, seed=3, scale=1)
    first = {p.name for p in out.iterdir()}
    generate(out, seed=4, scale=1)
    gt = json.loads((out / "ground_truth.json").read_text())
    assert gt["generator"]["seed"] == 4
    assert {p.name for p in out.iterdir()} == {d["file"] for d in gt["documents"]} | {"ground_truth.json"}
    assert first != {p.name for p in out.iterdir()}
