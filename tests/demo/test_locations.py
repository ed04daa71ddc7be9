"""Every ground-truth fact and mention is literally present where the ground truth says it is."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from .readback import Located, docx_blocks, normalise, pdf_page_texts, pptx_slides


def _by_document(items: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        grouped[item["document"]].append(item)
    return grouped


def _missing_in_docx(path: Path, items: list[dict[str, Any]]) -> list[str]:
    blocks = docx_blocks(path)
    paragraphs: dict[tuple[str, int], list[str]] = defaultdict(list)
    cells: dict[tuple[int, int, int], Located] = {}
    for b in blocks:
        if b.table is None:
            paragraphs[(b.section, b.page)].append(b.text)
        else:
            assert b.row is not None and b.column is not None
            cells[(b.table, b.row, b.column)] = b
    missing = []
    for item in items:
        cell = item["table"]
        if cell:
            found = cells.get((cell["index"], cell["row"], cell["column"]))
            ok = found is not None and found.text == item["text"] and found.page == item["page"] \
                and found.section == item["section"]
        else:
            ok = any(item["text"] in p for p in paragraphs[(item["section"], item["page"])])
        if not ok:
            missing.append(f"{path.name} p{item['page']} [{item['section']}] {item['text']!r}")
    return missing


def _missing_in_pdf(path: Path, items: list[dict[str, Any]]) -> list[str]:
    pages = pdf_page_texts(path)
    return [f"{path.name} p{i['page']} {i['text']!r}" for i in items
            if normalise(i["text"]) not in pages[i["page"] - 1]]


def _missing_in_pptx(path: Path, items: list[dict[str, Any]]) -> list[str]:
    slides = pptx_slides(path)
    missing = []
    for i in items:
        title, text = slides[i["page"] - 1]
        if normalise(i["text"]) not in text or not i["section"].startswith(title):
            missing.append(f"{path.name} slide {i['page']} {i['text']!r}")
    return missing


def _check(demo_dir: Path, gt: dict[str, Any], key: str) -> tuple[int, list[str]]:
    scans = {s["document"]: s["text"] for s in gt["scans"]}
    missing: list[str] = []
    checked = 0
    for name, items in sorted(_by_document(gt[key]).items()):
        path = demo_dir / name
        checked += len(items)
        if name in scans:
            missing += [f"{name} {i['text']!r}" for i in items if i["text"] not in scans[name]]
        elif name.endswith(".docx"):
            missing += _missing_in_docx(path, items)
        elif name.endswith(".pdf"):
            missing += _missing_in_pdf(path, items)
        else:
            missing += _missing_in_pptx(path, items)
    return checked, missing


@pytest.mark.parametrize("key", ["facts", "mentions"])
def test_every_statement_is_at_its_stated_location(demo_dir: Path, ground_truth: dict[str, Any], key: str) -> None:
    checked, missing = _check(demo_dir, ground_truth, key)
    assert checked > 1000
    assert not missing, f"{len(missing)} of {checked} not found, e.g. {missing[:5]}"


def test_docx_pages_follow_page_breaks(demo_dir: Path, ground_truth: dict[str, Any]) -> None:
    for doc in ground_truth["documents"]:
        if doc["format"] == "docx":
            assert max(b.page for b in docx_blocks(demo_dir / doc["file"])) == doc["pages"], doc["file"]


def test_mention_forms_are_in_their_text(ground_truth: dict[str, Any]) -> None:
    entities = {e["id"]: e for e in ground_truth["entities"]}
    for m in ground_truth["mentions"]:
        assert m["form"] in m["text"]
        assert m["form"] in entities[m["entity"]]["forms"]


def test_relations_are_stated_in_their_documents(ground_truth: dict[str, Any]) -> None:
    """Each step as recorded for a document is written there: every participant mentioned and
    every condition stated as a fact of that step."""
    mentioned: dict[str, set[str]] = defaultdict(set)
    for m in ground_truth["mentions"]:
        mentioned[m["document"]].add(m["entity"])
    stated: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for f in ground_truth["facts"]:
        stated[(f["document"], f["subject"].split("/")[0], f["kind"])].add(f["value"])
    assert ground_truth["relations"]
    for r in ground_truth["relations"]:
        participants = [i["entity"] for i in r["inputs"]] + r["outputs"] + r["equipment"] + r["unit_operations"]
        assert set(participants + [r["step"]]) <= mentioned[r["document"]], (r["document"], r["step"])
        for c in r["conditions"]:
            assert c["verbatim"] in stated[(r["document"], r["step"], c["kind"])], (r["document"], c)
