"""`kb mcp` over stdio, driven by the mcp client library: tools/list, then tools/call for ask and sparql."""

from __future__ import annotations

import asyncio
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from kb.config import load_config
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.web.testing import ENTITY, OXIME_TEXT, build_sample_store

pytestmark = pytest.mark.slow
TOOLS = {"ask", "search", "find_entities", "entity", "list_templates", "run_template", "sparql"}


@pytest.fixture(scope="module")
def server_params(tmp_path_factory: pytest.TempPathFactory) -> StdioServerParameters:
    """An on-disk sample store (closed again, so the server process can open it) and the command."""
    root = tmp_path_factory.mktemp("mcp")
    config = load_config(toml_path=root / "absent.toml", env={}, overrides={"store.path": str(root / "store"), "index.path": str(root / "index")})
    store = OxigraphLocalStore(root / "store")
    build_sample_store(store, config, root / "sample")
    store.close()
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "kb", "mcp", "--store", str(root / "store"), "--set", f"index.path={root / 'index'}"],
        cwd=str(root), env={"KB_SERVER_LOCAL_WRITES": "false"},
    )


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    data: dict[str, Any] = json.loads(result.content[0].text)
    return data


async def session(params: StdioServerParameters) -> dict[str, Any]:
    async with Client(params, read_timeout_seconds=240) as client:
        tools = await client.list_tools()
        answer = await client.call_tool("ask", {"question": "At what temperature was the oxime formed?"})
        rows = await client.call_tool("sparql", {"query": "PREFIX skos: <http://www.w3.org/2004/02/skos/core#> "
                                                 "SELECT ?label WHERE { GRAPH ?g { ?e skos:prefLabel ?label } } ORDER BY ?label"})
        update = await client.call_tool("sparql", {"query": "DROP ALL"})
        entity = await client.call_tool("entity", {"iri": ENTITY + "water"})
        missing = await client.call_tool("entity", {"iri": ENTITY + "nothing"})
        after = await client.call_tool("sparql", {"query": "ASK { GRAPH <urn:kb:graph:domain> { ?s ?p ?o } }"})
        return {"tools": tools.tools, "answer": answer, "rows": rows, "update": update, "entity": entity, "missing": missing, "after": after}


def test_tools_list_and_calls_for_ask_and_sparql(server_params: StdioServerParameters) -> None:
    # a fresh thread: another plugin (Playwright's sync API) may hold a running loop on this one
    with ThreadPoolExecutor(max_workers=1) as pool:
        got = pool.submit(asyncio.run, asyncio.wait_for(session(server_params), timeout=300)).result()
    tools = {t.name: t for t in got["tools"]}
    assert set(tools) == TOOLS
    assert all(t.annotations.read_only_hint for t in tools.values())
    assert "question" in tools["ask"].input_schema["properties"]

    answer = structured(got["answer"])
    assert answer["found_evidence"] and "20 °C" in answer["answer"]
    assert any(c["quote"] == OXIME_TEXT and c["page"] == 2 for c in answer["citations"])

    rows = structured(got["rows"])
    assert [r["label"]["value"] for r in rows["rows"]] == ["2-MeTHF", "Step 1: oxime formation", "Step 3: SNAr cyclisation", "water"]

    assert got["update"].is_error
    assert structured(got["after"]) == {"boolean": True}, "the refused update must not have changed the store"
    assert structured(got["entity"])["mentions"][0]["quote"] == "water"
    assert got["missing"].is_error and "not in the domain graph" in got["missing"].content[0].text
