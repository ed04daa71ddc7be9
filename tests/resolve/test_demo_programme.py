"""Resolution on the generated demo programme, scored against its ground truth (slow: builds the store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.resolve.evaluate import evaluate
from kb.resolve.pipeline import Outcome, run_resolution

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Outcome, object, dict]:
    from kb.cli import cli
    from kb.config import load_config
    from kb.stages.extract.stage import extract_store
    from kb.store import open_store

    folder = tmp_path_factory.mktemp("resolve-demo")
    runner = CliRunner()
    assert runner.invoke(cli, ["demo", "generate", str(folder / "demo"), "--seed", "7", "--scale", "1"]).exit_code == 0
    result = runner.invoke(cli, ["ingest", str(folder / "demo"), "--store", str(folder / "store")])
    assert result.exit_code == 0, result.output
    config = load_config(toml_path=folder / "absent.toml", env={}, overrides={"store.path": str(folder / "store")})
    store = open_store(config)
    extract_store(store)
    outcome = run_resolution(store, config, use_embeddings=False)
    yield outcome, store, json.loads((folder / "demo" / "ground_truth.json").read_text())
    store.close()


def run_example(store: object, name: str) -> list[dict[str, str]]:
    from kb.queries import parse_template
    from kb.vocab import sparql_prefixes

    template = parse_template(ROOT / "queries" / "examples" / f"{name}.rq", kind="example")
    rows = store.query(sparql_prefixes() + template.sparql)  # type: ignore[attr-defined]
    return [{v.value: (row[v.value].value if row[v.value] is not None else "") for v in rows.variables} for row in rows]


def step_numbers(store: object, rows: list[dict[str, str]]) -> set[int]:
    return {int(r["stepLabel"].split()[-1]) for r in rows if r["stepLabel"].startswith("Step ")}


def gt_answer(truth: dict, question: str) -> list[str]:
    return next(q["answer"] for q in truth["question_classes"] if q["question"] == question)


def test_pairwise_f1_and_near_misses(demo: tuple) -> None:
    outcome, _, truth = demo
    scores = evaluate(outcome, truth)
    assert scores["f1"] >= 0.97, scores
    assert scores["near_misses_merged"] == [], scores
    assert outcome.layer.anchoring()["unanchored"] == 0


def test_steps_with_water_and_2methf(demo: tuple) -> None:
    _, store, truth = demo
    expected = {int(s.rsplit("-s", 1)[1]) for s in gt_answer(truth, "Which process steps use both water and 2-MeTHF?")}
    assert step_numbers(store, run_example(store, "example_steps_sharing_two_inputs")) == expected


def test_steps_taking_acetonitrile_include_the_route_step(demo: tuple) -> None:
    _, store, truth = demo
    route = {int(r["step"].rsplit("-s", 1)[1]) for r in truth["route"] if any(i["entity"] == "acetonitrile" for i in r["inputs"])}
    found = step_numbers(store, run_example(store, "example_steps_taking_input"))
    assert route and route <= found


def test_unique_to_one_report(demo: tuple) -> None:
    _, store, truth = demo
    expected = set(gt_answer(truth, "Which substances are step inputs only in report TR-2019-014?"))
    labels = {e["id"]: {f.lower() for f in e["forms"]} for e in truth["entities"]}
    found = {r["label"].lower() for r in run_example(store, "example_inputs_unique_to_series")}
    hits = {e for e in expected if labels[e] & found}
    assert len(hits) >= len(expected) - 2, sorted(expected - hits)
    per_series: dict[str, set[str]] = {}
    for relation in truth["relations"]:
        series = relation["document"].split("_v")[0]
        if series.startswith("TR-"):
            per_series.setdefault(series, set()).update(i["entity"] for i in relation["inputs"])
    expected_both = set.intersection(*per_series.values())
    both = {r["label"].lower() for r in run_example(store, "example_inputs_in_both_series")}
    hits_both = {e for e in expected_both if labels[e] & both}
    assert len(hits_both) >= len(expected_both) - 1, (sorted(expected_both), sorted(both))


def test_route_connects_the_intermediates(demo: tuple) -> None:
    _, store, _ = demo
    rows = run_example(store, "example_route_between_intermediates")
    assert step_numbers(store, rows) == {1, 2, 3, 4, 5, 6}


def test_changed_conditions_are_a_query(demo: tuple) -> None:
    _, store, truth = demo
    rows = run_example(store, "example_conditions_changed")
    changes = [a for q in truth["question_classes"] if q["question"] == "When did the equivalents of kx4471-s2/cdi change in TR-2019-014?" for a in q["answer"]]
    assert changes
    version_date = changes[0].split("_")[2].split(".")[0]
    new_value = changes[0].split("-> ")[1].split()[0]
    assert any(r["date"] == version_date and r["kind"] == "equivalents" and float(r["value"]) == float(new_value) for r in rows)
