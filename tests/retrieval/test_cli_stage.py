"""`kb index` / `kb search` end to end on a store on disk, and the pipeline stage."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from kb.builtins import load_builtins
from kb.cli import cli
from kb.config import load_config
from kb.ingest import ingest
from kb.registry import StageContext, stages
from kb.retrieval.index import read_index
from kb.store.oxigraph_local import OxigraphLocalStore

from .conftest import corpus


def test_index_build_then_search_prints_citation_and_highlight(tmp_path: Path) -> None:
    runner = CliRunner()
    source = corpus(tmp_path)
    store_dir, index_dir = str(tmp_path / "store"), str(tmp_path / "index")
    common = ["--store", store_dir, "--set", f"index.path={index_dir}"]
    assert runner.invoke(cli, ["ingest", str(source), "--store", store_dir]).exit_code == 0
    built = runner.invoke(cli, ["index", "build", *common])
    assert built.exit_code == 0, built.output
    assert "chunks indexed:" in built.output
    found = runner.invoke(cli, ["search", "lot RA-X35-0043", "-k", "2", "--filter", "kind=text", *common])
    assert found.exit_code == 0, found.output
    first = found.output.split("\n\n")[0]
    assert "TR-2019-014 v7" in first and "3 Summary" in first and "page 3" in first
    assert "**RA-X35-0043**" in first
    bad = runner.invoke(cli, ["search", "x", "--filter", "colour=red", *common])
    assert bad.exit_code != 0 and "Unknown filter 'colour'" in str(bad.exception or bad.output)


def test_pipeline_stage_updates_the_index(tmp_path: Path) -> None:
    load_builtins()
    config = load_config(toml_path=tmp_path / "absent.toml", env={}, overrides={"index.path": str(tmp_path / "index")})
    store = OxigraphLocalStore(None)
    ingest(store, [corpus(tmp_path)], config)
    spec = stages.get("index.update_passages.v1")
    assert spec.requires == ("graph:lexical",) and spec.produces == ("index:passages",)
    result = spec.function(StageContext(config=config, store=store), **stages.validate_params(spec.name, {}))
    assert "documents added or replaced: 2" in result.lines
    index = read_index(tmp_path / "index")
    assert index is not None and len(index.by_graph) == 2
