"""Search over a real ingested corpus: ranking, filters, fragments, neighbours, replacement."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kb.config import Config
from kb.errors import ConfigError
from kb.ingest import ingest
from kb.retrieval.index import (
    PassageIndex,
    build_index,
    open_index,
    read_index,
    update_index,
)
from kb.retrieval.keyword import VERSION as KEYWORD_VERSION
from kb.retrieval.keyword import KeywordIndex
from kb.retrieval.neighbours import context_text, neighbours, section_chunks
from kb.retrieval.normalise import term_list
from kb.retrieval.search import highlight, required_codes, search
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.testing import write_pdf

from .conftest import V7, corpus, retrieval_config

Indexed = tuple[OxigraphLocalStore, Config, PassageIndex]


def test_paraphrased_question_finds_the_fact(indexed: Indexed) -> None:
    _, config, index = indexed
    top = search("At what temperature was the oxime prepared in report version 4?", None, 3, config=config, index=index)
    assert "20 °C" in top[0].text and top[0].version == "4"
    assert top[0].section_path == "2 Results" and top[0].page == 2
    assert any(top[0].text[s:e] == "oxime" for s, e in top[0].spans)


def test_abbreviation_in_question_matches_full_name_in_text(indexed: Indexed) -> None:
    _, config, index = indexed
    top = search("Which step uses MeCN?", None, 1, config=config, index=index, method="keyword")
    assert "acetonitrile" in top[0].text


def test_dense_ranks_a_paraphrase_first(indexed: Indexed) -> None:
    _, config, index = indexed
    top = search("how long is the route to the target compound", None, 1, config=config, index=index, method="dense")
    assert "six steps" in top[0].text


def test_filters_apply_before_ranking(indexed: Indexed) -> None:
    _, config, index = indexed
    tables = search("solvent", {"kind": "table"}, 5, config=config, index=index)
    assert tables and all(p.kind == "table" for p in tables)
    v7 = search("oxime temperature", ["version=5..9"], 5, config=config, index=index)
    assert v7 and all(p.version == "7" for p in v7)
    scoped = search("conversion", {"section": "2 results > 2.1"}, 10, config=config, index=index)
    assert scoped and all(p.section_path.startswith("2 Results > 2.1") for p in scoped)
    by_file = search("lot", {"document": "TR-2019-014_v7.pdf"}, 10, config=config, index=index)
    assert by_file and all(p.version == "7" for p in by_file)
    assert search("lot", {"series": "TR-2020"}, 10, config=config, index=index) == []


def test_unknown_filter_is_a_config_error(indexed: Indexed) -> None:
    _, config, index = indexed
    with pytest.raises(ConfigError, match="Unknown filter 'colour'"):
        search("x", ["colour=red"], 3, config=config, index=index)


def test_short_fragments_are_keyword_only(indexed: Indexed) -> None:
    _, config, index = indexed
    short = [r for r in index.records if len(r.text.strip()) < config["embedding.min_chars"]]
    assert short and not {r.iri for r in short} & set(index.dense.ids)
    hit = search("OK", None, 10, config=config, index=index, method="keyword")
    assert any(p.text == "OK." for p in hit)


def test_neighbours_follow_reading_order_and_section(indexed: Indexed) -> None:
    _, _, index = indexed
    oxime = next(r for r in index.records if "20 °C" in r.text)
    around = neighbours(index, oxime.iri, before=1, after=1)
    assert [r.reading_index for r in around] == [oxime.reading_index - 1, oxime.reading_index, oxime.reading_index + 1]
    assert {r.section for r in section_chunks(index, oxime.iri)} == {oxime.section}
    assert context_text(index, oxime.iri).startswith("2 Results")


def test_highlight_marks_spans(indexed: Indexed) -> None:
    _, config, index = indexed
    top = search("lot RA-X35-0042", None, 1, config=config, index=index)
    assert "[RA-X35-0042]" in highlight(top[0])


def test_replaced_document_leaves_the_index_and_rebuild_equals_update(tmp_path: Path) -> None:
    store = OxigraphLocalStore(None)
    config = retrieval_config(tmp_path)
    source = corpus(tmp_path)
    ingest(store, [source], config)
    first = update_index(store, config)
    assert first.embedded > 0
    old_iris = {r.iri for r in open_index(config).records if "35 °C" in r.text}
    v8 = replace(V7, sections=[(1, "2 Results", ["The oxime was formed in water at 50 °C over 1 h."])])
    write_pdf(source / "TR-2019-014_v7.pdf", v8)
    ingest(store, [source], config)
    second = update_index(store, config)
    assert len(second.graphs_added) == 1 and second.reused > 0
    index = open_index(config)
    texts = [p.text for p in search("oxime temperature", None, 10, config=config, index=index)]
    assert not any("35 °C" in t for t in texts) and any("50 °C" in t for t in texts)
    assert not old_iris & {r.iri for r in index.records if "35 °C" in r.text}

    rebuilt_config = config.with_values(index__path=str(tmp_path / "rebuilt"))
    build_index(store, rebuilt_config)
    rebuilt = read_index(tmp_path / "rebuilt")
    assert rebuilt is not None
    assert rebuilt.records == index.records and rebuilt.fingerprints == index.fingerprints
    assert rebuilt.dense.ids == index.dense.ids
    assert np.allclose(rebuilt.dense.vectors, index.dense.vectors, atol=1e-5)
    for question in ["oxime temperature", "which lot met specifications", "solvent screen conversion"]:
        a = search(question, None, 10, config=config, index=index)
        b = search(question, None, 10, config=rebuilt_config, index=rebuilt)
        assert [p.iri for p in a] == [p.iri for p in b]


def test_unchanged_store_is_a_no_op(indexed: Indexed, tmp_path: Path) -> None:
    store, config, index = indexed
    copy = config.with_values(index__path=str(tmp_path / "copy"))
    build_index(store, copy)
    again = update_index(store, copy)
    assert again.embedded == 0 and not again.graphs_added and again.chunks == len(index.records)


def test_older_keyword_version_is_rebuilt_without_reembedding(indexed: Indexed, tmp_path: Path) -> None:
    store, config, _ = indexed
    copy = config.with_values(index__path=str(tmp_path / "copy"))
    build_index(store, copy)
    manifest = tmp_path / "copy" / "manifest.json"
    manifest.write_text(json.dumps(json.loads(manifest.read_text()) | {"keyword": KEYWORD_VERSION - 1}))
    again = update_index(store, copy)
    assert again.embedded == 0 and again.reused > 0
    rebuilt = read_index(tmp_path / "copy")
    assert rebuilt is not None and rebuilt.keyword_version == KEYWORD_VERSION


def test_substance_names_are_not_required_codes(indexed: Indexed) -> None:
    _, _, index = indexed
    codes = required_codes("Was lot RA-X35-0042 of TR-2019-014 run in 2-methyltetrahydrofuran?", index)
    assert codes == {"ra-x35-0042"}


def test_document_metadata_is_searchable(indexed: Indexed) -> None:
    _, _, index = indexed
    keyword = index.keyword
    assert isinstance(keyword, KeywordIndex)
    rows = np.ones(len(index.records), dtype=bool)
    scores = keyword.scores(term_list("TR-2019-014 v7"), rows)
    best = index.records[int(np.argmax(scores))]
    assert best.version == "7"


def test_keyword_extra_adds_what_fusion_left_out_from_one_ranking(indexed: Indexed) -> None:
    _, config, index = indexed
    question = "At what temperature was the oxime prepared?"
    fused = search(question, None, 1, config=config, index=index)
    keyword = search(question, None, 3, config=config, index=index, method="keyword")
    both = search(question, None, 1, config=config, index=index, keyword_extra=3)
    assert both[:1] == fused and len(both) > 1
    assert [p.iri for p in both[1:]] == [p.iri for p in keyword if p.iri != fused[0].iri]
