"""Token-level reading of SPARQL text: enough lexing to edit a request without a full parser.

Strings, IRIs and comments are single tokens, so a keyword or brace inside a literal or an IRI
is never mistaken for syntax. Used to inject bindings as a VALUES block (remote stores have no
substitution API, and pyoxigraph's does not reach its join planner), to add protocol ``USING`` clauses to updates, and to spot SERVICE / LOAD.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kb.errors import QueryError

if TYPE_CHECKING:
    from kb.store.protocol import Term

_TOKEN = re.compile(
    r"""
    (?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
              |'(?:[^'\\\n\r]|\\.)*'|"(?:[^"\\\n\r]|\\.)*")
    |(?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    |(?P<comment>\#[^\n\r]*)
    |(?P<var>[?$][A-Za-z0-9_\u00B7-\uFFFF]+)
    |(?P<word>[A-Za-z_][A-Za-z0-9_\-]*(?::[^\s{}()\[\];,.]*)?|:[^\s{}()\[\];,.]*)
    |(?P<space>\s+)
    |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    start: int
    depth: int  # brace depth before this token

    @property
    def keyword(self) -> str:
        return self.text.upper() if self.kind == "word" else ""


def tokens(text: str) -> list[Token]:
    """Significant tokens (no whitespace or comments), each with its brace depth."""
    out: list[Token] = []
    depth = 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        if kind in ("space", "comment"):
            continue
        value = match.group()
        if value == "}":
            depth -= 1
        out.append(Token(kind, value, match.start(), depth))
        if value == "{":
            depth += 1
    return out


def keywords(text: str) -> set[str]:
    """Upper-cased bare words of a request, outside strings, IRIs and comments."""
    return {t.keyword for t in tokens(text) if t.kind == "word"}


def _where_group(toks: list[Token]) -> Token:
    """The opening brace of the query's top-level WHERE group."""
    top = [i for i, t in enumerate(toks) if t.text == "{" and t.depth == 0]
    if not top:
        raise QueryError("SPARQL query has no WHERE group to bind variables in")
    form = next((t.keyword for t in toks if t.keyword in {"SELECT", "CONSTRUCT", "ASK", "DESCRIBE"}), "")
    first = top[0]
    if form == "CONSTRUCT":
        if toks[first - 1].keyword == "WHERE":
            raise QueryError("bindings need the long form CONSTRUCT { template } WHERE { pattern }")
        if len(top) < 2:
            raise QueryError("SPARQL CONSTRUCT query has no WHERE group to bind variables in")
        return toks[top[1]]
    return toks[first]


def inject_values(sparql: str, bindings: Mapping[str, Term]) -> str:
    """Bind variables by a VALUES block at the start of the top-level WHERE group.

    Terms are written in N-Triples syntax (pyoxigraph's ``str()``), which escapes every literal,
    so a value cannot break out of its slot. Like SEP-0007 substitution the bound variables are
    visible to every FILTER and to the projection; unlike it, sub-SELECTs do not see them.

    >>> from pyoxigraph import Literal
    >>> inject_values('SELECT * WHERE { ?s ?p ?o }', {'o': Literal('a" } DROP ALL #')})
    'SELECT * WHERE { VALUES (?o) { ("a\\\\" } DROP ALL #") } ?s ?p ?o }'
    """
    if not bindings:
        return sparql
    for name in bindings:
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise QueryError(f"binding name {name!r} is not a SPARQL variable name")
    names = sorted(bindings)
    block = "VALUES (" + " ".join(f"?{n}" for n in names) + ") { (" + " ".join(str(bindings[n]) for n in names) + ") } "
    brace = _where_group(tokens(sparql))
    cut = brace.start + 1
    return sparql[:cut] + " " + block + sparql[cut:].lstrip()


def add_using(update: str, default_graphs: list[str], named_graphs: list[str]) -> str:
    """Apply protocol ``using-graph-uri`` / ``using-named-graph-uri`` to every DELETE/INSERT ... WHERE.

    Raises QueryError when the request already names its dataset with USING or WITH (the
    protocol forbids both at once).
    """
    if not default_graphs and not named_graphs:
        return update
    toks = tokens(update)
    top = [t for t in toks if t.depth == 0]
    if any(t.keyword in {"USING", "WITH"} for t in top):
        raise QueryError("update names its dataset with USING/WITH and with using-graph-uri parameters; use one")
    clause = " ".join([f"USING <{g}>" for g in default_graphs] + [f"USING NAMED <{g}>" for g in named_graphs])
    inserts = [
        t.start for i, t in enumerate(top) if t.keyword == "WHERE" and i > 0 and top[i - 1].keyword != "DELETE"
    ]
    for start in reversed(inserts):
        update = update[:start] + clause + " " + update[start:]
    return update
