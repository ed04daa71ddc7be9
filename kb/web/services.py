"""What the JSON API, the pages and the MCP server do, as plain functions over one store.

The agent is built once per store state (it loads the label index and the templates) and rebuilt
after a write job finishes, so an uploaded document is answerable without a restart.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pyoxigraph import BlankNode, Literal, NamedNode

from kb.config import Config
from kb.errors import UnknownNameError
from kb.queries import Template, TemplateRegistry, queries_dir, run_template
from kb.store import GraphStore
from kb.web.errors import WebError

ROUTES = ("domain", "lexical", "hybrid")


def term_json(term: Any) -> dict[str, str] | None:
    """A result cell as SPARQL JSON results write it: type, value and datatype or language."""
    if term is None:
        return None
    if isinstance(term, NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, Literal):
        cell = {"type": "literal", "value": term.value}
        if term.language:
            cell["xml:lang"] = term.language
        elif term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            cell["datatype"] = term.datatype.value
        return cell
    return {"type": "literal", "value": str(term)}


def template_json(template: Template) -> dict[str, Any]:
    return {"name": template.name, "summary": template.summary, "kind": template.kind, "params": dict(template.params),
            "answer": template.answer, "examples": list(template.examples), "sparql": template.sparql}


class Services:
    """The operations shared by every interface; thread-safe for one store."""

    def __init__(self, config: Config, store: GraphStore) -> None:
        self.config = config
        self.store = store
        self.registry = TemplateRegistry.load(queries_dir(config))
        self._agent: Any = None
        self._lock = threading.Lock()

    @property
    def report_dir(self) -> Path:
        """Where the latest consistency report is kept: ``report/`` beside the store folder."""
        return Path(self.config["store.path"]).resolve().parent / "report"

    def agent(self) -> Any:
        from kb.agent.core import Agent
        from kb.retrieval.dense import embed

        with self._lock:
            if self._agent is None:
                model = self.config["embedding.model"]
                self._agent = Agent(self.store, self.config, embed=lambda texts: embed(model, texts))
            return self._agent

    def invalidate(self) -> None:
        """The store changed: the next question rebuilds the agent's label index."""
        with self._lock:
            self._agent = None

    def ask(self, question: str, route: str | None = None, on_step: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        if route is not None and route not in ROUTES:
            raise WebError(f"route: must be one of {', '.join(ROUTES)}, got {route!r}", code="KB720")
        forward = (lambda step: on_step(asdict(step))) if on_step else None
        answer: dict[str, Any] = self.agent().ask(question, route=route, on_step=forward).to_json()
        return answer

    def search(self, query: str, filters: dict[str, str] | None = None, k: int | None = None) -> list[dict[str, Any]]:
        from kb.retrieval.search import search

        if not query.strip():
            raise WebError("q: the query is empty", code="KB720")
        passages = search(query, filters or {}, k, config=self.config)
        return [asdict(p) | {"spans": [list(s) for s in p.spans]} for p in passages]

    def template(self, name: str) -> Template:
        try:
            return self.registry.get(name)
        except UnknownNameError as exc:
            raise WebError(exc.message, status=404, code="KB713") from None

    def templates(self) -> list[dict[str, Any]]:
        return [template_json(t) for t in self.registry.all()]

    def run_template(self, name: str, params: dict[str, Any]) -> dict[str, Any]:
        template = self.template(name)
        found = run_template(self.store, template, params)
        variables = list(found[0]) if found else []
        return {"template": name, "params": params, "variables": variables,
                "rows": [{k: term_json(v) for k, v in row.items()} for row in found]}

    def latest_report(self) -> dict[str, Any]:
        path = self.report_dir / "report.json"
        if not path.is_file():
            raise WebError("no consistency report yet", status=404, code="KB714",
                           hint="POST /api/report (with the token) or run 'kb check'")
        report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return report
