"""The shipped lexicon: well-formed rows, valid CAS check digits, consistent with OSCAR4's names."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from kb.errors import ConfigError
from kb.stages.extract.lexicon import LexEntry, default_lexicon, load_lexicon

OSCAR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "oscar4-compound-names" / "defaultCompounds.xml"


def cas_check_digit_ok(cas: str) -> bool:
    digits = cas.replace("-", "")
    body, check = digits[:-1], int(digits[-1])
    return sum(i * int(d) for i, d in enumerate(reversed(body), start=1)) % 10 == check


def substances() -> list[LexEntry]:
    return [e for e in default_lexicon() if e.kind == "substance"]


def test_lexicon_has_several_hundred_substances_across_categories() -> None:
    entries = substances()
    assert len(entries) >= 300
    categories = {e.category for e in entries}
    assert {"solvent", "base", "acid", "catalyst", "ligand", "drying_agent", "gas", "reagent"} <= categories


def test_every_cas_number_has_a_valid_check_digit() -> None:
    bad = [(e.name, e.cas) for e in substances() if e.cas and not cas_check_digit_ok(e.cas)]
    assert bad == []


def test_no_surface_form_names_two_entries() -> None:
    owners: dict[str, set[str]] = defaultdict(set)
    for entry in default_lexicon():
        for form in entry.forms:
            owners[form].add(entry.name)
    assert {f: o for f, o in owners.items() if len(o) > 1} == {}


def test_malformed_row_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "substances.tsv").write_text("name\tcategory\tsynonyms\tformula\tcas\nwater\tsolvent\n")
    (tmp_path / "processes.tsv").write_text("name\tkind\tsynonyms\trefined\n")
    with pytest.raises(ConfigError, match=r"substances.tsv:2"):
        load_lexicon(tmp_path)


@pytest.mark.skipif(not OSCAR.is_file(), reason=f"OSCAR4 compound names not found at {OSCAR} (../shared absent)")
def test_lexicon_agrees_with_oscar4_names() -> None:
    """Forms of one entry that OSCAR4 knows must name one structure (same InChIKey skeleton)."""
    skeleton: dict[str, str] = {}
    for record in ET.parse(OSCAR).getroot().iter("record"):
        key = (record.findtext("StdInChIKey") or "")[:14]
        for name in record.findall("name"):
            if name.text and key:
                skeleton[name.text.lower()] = key
    known = 0
    for entry in substances():
        keys = {skeleton[f.lower()] for f in entry.forms if f.lower() in skeleton}
        known += bool(keys)
        assert len(keys) <= 1, f"{entry.name}: forms name different OSCAR4 structures {keys}"
    assert known >= 100
