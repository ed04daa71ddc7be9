"""The OpenAPI 3.1 document of the JSON API, and request validation driven by it.

The spec (openapi.yaml beside this module) is the one source of truth: it is served at
``/api/openapi.json``, and every API request is checked against its parameters and request
body schemas before the handler runs. Schemas are checked with ``jsonschema`` (OpenAPI 3.1
schemas are JSON Schema 2020-12); a ``$ref`` into the spec resolves through a registry that holds
the whole document, so a schema is validated where it stands.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from flask import Request
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from kb.web.errors import WebError

SPEC_PATH = Path(__file__).with_name("openapi.yaml")
SPEC_URI = "urn:kb:openapi"
RULE_PARAM = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    """The parsed OpenAPI document."""
    loaded: dict[str, Any] = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    return loaded


def pointer(*parts: str) -> str:
    """A JSON pointer into the spec (``/`` and ``~`` escaped)."""
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


@lru_cache(maxsize=256)
def validator(location: str) -> Draft202012Validator:
    """A validator for the schema at a JSON pointer of the spec."""
    registry: Registry = Registry().with_resource(SPEC_URI, Resource.from_contents(spec(), default_specification=DRAFT202012))
    return Draft202012Validator({"$ref": f"{SPEC_URI}#{location}"}, registry=registry)


def resolve(node: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """Follow one local ``$ref``; returns the target and its pointer (None when not a ref)."""
    ref = node.get("$ref")
    if not ref:
        return node, None
    target: Any = spec()
    for part in ref.removeprefix("#/").split("/"):
        target = target[part.replace("~1", "/").replace("~0", "~")]
    return target, ref.removeprefix("#")


def check(name: str, location: str, value: Any) -> None:
    errors = sorted(validator(location).iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = ".".join([name or "body", *map(str, first.absolute_path)])
        raise WebError(f"{where}: {first.message[:300]}", code="KB720", hint="see /api/openapi.json")


def coerce(raw: str, schema: dict[str, Any], name: str) -> Any:
    """Query and path values arrive as text; integers are converted before validation."""
    if schema.get("type") == "integer":
        if not re.fullmatch(r"-?\d{1,18}", raw):
            raise WebError(f"{name}: must be an integer, got {raw[:40]!r}", code="KB720")
        return int(raw)
    return raw


def operation_for(rule: str, method: str) -> tuple[dict[str, Any], str] | None:
    """The spec's operation for a Flask rule (``<x>`` becomes ``{x}``) and its pointer."""
    path = RULE_PARAM.sub(r"{\1}", rule)
    operation = spec()["paths"].get(path, {}).get(method.lower())
    return (operation, pointer("paths", path, method.lower())) if operation else None


def validate_request(request: Request, view_args: dict[str, Any]) -> None:
    """Check parameters and body of an API request against its operation in the spec."""
    if request.url_rule is None:
        return
    found = operation_for(request.url_rule.rule, request.method)
    if found is None:
        return
    operation, location = found
    declared = set()
    for i, raw_param in enumerate(operation.get("parameters", [])):
        param, ref = resolve(raw_param)
        base = ref or location + pointer("parameters", str(i))
        name, where = param["name"], param["in"]
        declared.add((name, where))
        given = request.args.getlist(name) if where == "query" else [str(view_args[name])] if name in view_args else []
        if not given:
            if param.get("required"):
                raise WebError(f"{name}: required {where} parameter is missing", code="KB720")
            continue
        if len(given) > 1:
            raise WebError(f"{name}: give the parameter once, not {len(given)} times", code="KB720")
        check(name, base + "/schema", coerce(given[0], param["schema"], name))
        if where == "path":
            view_args[name] = coerce(given[0], param["schema"], name)
    unknown = sorted(set(request.args) - {n for n, w in declared if w == "query"})
    if unknown:
        expected = ", ".join(sorted(n for n, w in declared if w == "query")) or "none"
        raise WebError(f"{unknown[0]}: unknown query parameter; expected {expected}", code="KB720")
    validate_body(request, operation, location)


def validate_body(request: Request, operation: dict[str, Any], location: str) -> None:
    body = operation.get("requestBody")
    if body is None:
        return
    content = body.get("content", {})
    if not request.content_length and not request.mimetype:
        if body.get("required"):
            raise WebError(f"a request body is required ({', '.join(content)})", code="KB720")
        return
    if request.mimetype not in content:
        raise WebError(f"unsupported Content-Type {request.mimetype or '(none)'!r}; use {', '.join(content)}",
                       status=415, code="KB707")
    if request.mimetype != "application/json":
        return
    try:
        document = json.loads(request.get_data() or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise WebError(f"body: not valid JSON: {exc}", code="KB720") from None
    check("", location + pointer("requestBody", "content", "application/json", "schema"), document)
