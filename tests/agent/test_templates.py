"""Issue 10: the template library loads strictly, parses, and binds values only as RDF terms."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Quad

from kb.errors import ConfigError, QueryError
from kb.queries import TemplateRegistry, parse_template, queries_dir, run_template
from kb.store.oxigraph_local import OxigraphLocalStore

REQUIRED_CLASSES = {"overlap", "overlap_series", "exclusivity", "counting", "fan_in", "connectivity", "evolution", "version_change", "roles", "mentions"}
HOSTILE = [
    'x" } ; DROP ALL ; #',
    "x> } DROP ALL { <y",
    "?a } UNION { ?s ?p ?o",
    "'''\"\"\"\\",
    "{" * 200,
]


@pytest.fixture(scope="module")
def registry() -> TemplateRegistry:
    return TemplateRegistry.load(queries_dir())


def sample_value(kind: str) -> str:
    return {"entity": "https://w3id.org/cmc-kb/id/entity/x", "iri": "http://purl.obolibrary.org/obo/CHEBI_46787",
            "document": "https://w3id.org/cmc-kb/id/doc/x", "integer": "3", "decimal": "1.5"}.get(kind, "TR-2019-014")


def test_every_question_class_has_a_template(registry: TemplateRegistry) -> None:
    classes = {t.question_class for t in registry.all("template")}
    assert REQUIRED_CLASSES <= classes
    for template in registry.all("template"):
        assert len(template.examples) >= 3, template.name
        assert template.summary


def test_every_template_parses_and_runs_on_an_empty_store(registry: TemplateRegistry) -> None:
    store = OxigraphLocalStore(None)
    for template in registry.all():
        values = {name: sample_value(kind) for name, kind in template.params.items()}
        assert run_template(store, template, values) == []


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_string_values_are_data_not_syntax(registry: TemplateRegistry, hostile: str) -> None:
    store = OxigraphLocalStore(None)
    marker = Quad(NamedNode("http://x/s"), NamedNode("http://x/p"), Literal("kept"), NamedNode("urn:kb:graph:domain"))
    store.add([marker], graph="urn:kb:graph:domain")
    template = registry.get("unique_to_series")
    assert run_template(store, template, {"series": hostile}) == []
    assert len(list(store.query("SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }"))) == 1


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_iri_values_are_refused(registry: TemplateRegistry, hostile: str) -> None:
    with pytest.raises(QueryError, match="must be entity"):
        registry.get("steps_taking_input").bind({"substance": hostile})


def test_unknown_and_missing_parameters_are_errors(registry: TemplateRegistry) -> None:
    template = registry.get("steps_using_both")
    with pytest.raises(QueryError, match="unknown parameter 'c'"):
        template.bind({"a": "http://x/a", "b": "http://x/b", "c": "1"})
    with pytest.raises(QueryError, match="missing parameter 'b'"):
        template.bind({"a": "http://x/a"})


def test_unknown_metadata_key_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.rq"
    path.write_text("#+ name: bad\n#+ summary: s\n#+ colour: blue\nSELECT * WHERE { ?s ?p ?o }\n")
    with pytest.raises(ConfigError, match="colour"):
        parse_template(path, kind="template")
