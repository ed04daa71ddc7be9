"""SPARQL templates are files: `#+ key: value` metadata lines, then the query.

The loader parses each file into a strict model and registers it by name. The CLI, the Flask
routes and the agent all run templates from this registry and hold no SPARQL of their own.
Parameter values are bound as RDF terms through the store's ``bindings=`` (a VALUES block of
escaped N-Triples terms), never by string formatting.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pyoxigraph import Literal as RdfLiteral
from pyoxigraph import NamedNode, QuerySolutions

from kb import vocab as V
from kb.config import Config
from kb.errors import ConfigError, QueryError, UnknownNameError
from kb.store import GraphStore

ParamType = Literal["entity", "iri", "document", "string", "integer", "decimal"]
META_LINE = re.compile(r"^#\+\s*([a-z_]+)\s*:\s*(.*)$")
IRI_TYPES = {"entity", "iri", "document"}
STRUCTURED_KEYS = {"params", "entity_types", "examples"}


class Template(BaseModel):
    """One query file's metadata plus its SPARQL text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    summary: str
    params: dict[str, ParamType] = Field(default_factory=dict)
    graph: str = ""
    examples: list[str] = Field(default_factory=list)
    answer: Literal["list", "table", "value", "boolean", "path"] = "table"
    question_class: str = ""
    kind: Literal["template", "example"] = "template"
    entity_types: dict[str, str] = Field(default_factory=dict)
    sparql: str
    path: str

    def bind(self, values: Mapping[str, Any]) -> dict[str, NamedNode | RdfLiteral]:
        """Check and convert parameter values to RDF terms; unknown or missing names are errors."""
        unknown = sorted(set(values) - set(self.params))
        if unknown:
            raise QueryError(f"template {self.name!r}: unknown parameter {unknown[0]!r}; expected {', '.join(self.params) or 'none'}")
        missing = [p for p in self.params if p not in values]
        if missing:
            raise QueryError(f"template {self.name!r}: missing parameter {missing[0]!r} ({self.params[missing[0]]})")
        return {name: to_term(self.name, name, kind, values[name]) for name, kind in self.params.items()}


def to_term(template: str, name: str, kind: str, value: Any) -> NamedNode | RdfLiteral:
    """Typed conversion; an IRI parameter must be an absolute IRI, nothing else gets through."""
    if isinstance(value, (NamedNode, RdfLiteral)):
        return value
    text = str(value)
    try:
        if kind in IRI_TYPES:
            if not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s<>\"{}|\\^`]*$", text):
                raise ValueError("not an absolute IRI")
            return NamedNode(text)
        if kind == "integer":
            return RdfLiteral(str(int(text)), datatype=NamedNode(V.XSD + "integer"))
        if kind == "decimal":
            return RdfLiteral(str(Decimal(text)), datatype=NamedNode(V.XSD + "decimal"))
    except (ValueError, InvalidOperation) as exc:
        raise QueryError(f"template {template!r}: parameter {name!r} must be {kind}, got {text[:80]!r}") from exc
    return RdfLiteral(text)


def parse_template(path: Path, *, kind: str) -> Template:
    """Read one .rq file into a Template; malformed metadata names the file and the line."""
    text = path.read_text(encoding="utf-8")
    meta: dict[str, Any] = {}
    body: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        found = META_LINE.match(line)
        if found and not body:
            key, raw = found.groups()
            if key not in STRUCTURED_KEYS:
                meta[key] = raw.strip()
                continue
            try:
                meta[key] = yaml.safe_load(raw) if raw.strip() else ""
            except yaml.YAMLError as exc:
                raise ConfigError(f"{path}:{number}: cannot read value of {key!r}: {exc}") from exc
        else:
            body.append(line)
    meta.setdefault("name", path.stem)
    meta.setdefault("kind", kind)
    try:
        return Template(sparql=V.sparql_prefixes() + "\n".join(body).strip() + "\n", path=str(path), **meta)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"{path}: invalid template metadata: {problems}") from exc


def queries_dir(config: Config | None = None) -> Path:
    configured = config["queries.path"] if config is not None else ""
    return Path(configured) if configured else Path(__file__).resolve().parent.parent / "queries"


class TemplateRegistry:
    """Every template under queries/ (templates/ for the agent, examples/ for people)."""

    def __init__(self, templates: dict[str, Template]) -> None:
        self._templates = templates

    @classmethod
    def load(cls, folder: Path) -> TemplateRegistry:
        found: dict[str, Template] = {}
        for path in sorted(folder.rglob("*.rq")):
            template = parse_template(path, kind="example" if "examples" in path.parts else "template")
            if template.name in found:
                raise ConfigError(f"{path}: template name {template.name!r} already used by {found[template.name].path}")
            found[template.name] = template
        return cls(found)

    def get(self, name: str) -> Template:
        if name not in self._templates:
            raise UnknownNameError("template", name, list(self._templates))
        return self._templates[name]

    def all(self, kind: str | None = None) -> list[Template]:
        return [t for _, t in sorted(self._templates.items()) if kind is None or t.kind == kind]


def run_template(store: GraphStore, template: Template, values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Run a SELECT template with bound parameters; rows are dicts of pyoxigraph terms."""
    result = store.query(template.sparql, bindings=template.bind(values))
    if not isinstance(result, QuerySolutions):
        raise QueryError(f"template {template.name!r} is not a SELECT query")
    names = [v.value for v in result.variables]
    return [{n: row[n] for n in names} for row in result]
