"""Issue 10: LLM backends — OpenAI-compatible endpoint against a real local HTTP server, fallback, embedded."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kb.agent.llm import EmbeddedBackend, LLMChain, OpenAIBackend


class ChatHandler(BaseHTTPRequestHandler):
    """Speaks POST /v1/chat/completions; the reply text is chosen by the test via the server."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, self.headers.get("Authorization"), body))  # type: ignore[attr-defined]
        status, text = self.server.replies.pop(0)  # type: ignore[attr-defined]
        payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def chat_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), ChatHandler)
    server.requests = []  # type: ignore[attr-defined]
    server.replies = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()


def url(server: ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def test_openai_backend_sends_greedy_request_with_key(chat_server) -> None:  # type: ignore[no-untyped-def]
    chat_server.replies.append((200, "domain"))
    chain = LLMChain([OpenAIBackend(url(chat_server), "tiny", "secret", 5.0)], retries=0)
    choice, reply = chain.choose("Route this question", ["domain", "lexical"])
    assert choice == "domain"
    path, auth, body = chat_server.requests[0]
    assert path == "/v1/chat/completions" and auth == "Bearer secret"
    assert body["temperature"] == 0 and body["model"] == "tiny"
    assert [c.outcome for c in reply.calls] == ["ok"]


def test_retry_then_success_is_logged(chat_server) -> None:  # type: ignore[no-untyped-def]
    chat_server.replies.extend([(500, "boom"), (200, "lexical")])
    chain = LLMChain([OpenAIBackend(url(chat_server), "tiny", "", 5.0)], retries=2)
    reply = chain.complete([{"role": "user", "content": "x"}])
    assert reply.text == "lexical"
    assert [c.outcome.split(":")[0] for c in reply.calls] == ["error", "ok"]


def test_fallback_to_next_backend_when_endpoint_is_down(chat_server) -> None:  # type: ignore[no-untyped-def]
    dead = OpenAIBackend("http://127.0.0.1:9/v1", "tiny", "", 0.5)
    chat_server.replies.append((200, "fallback answer"))
    chain = LLMChain([dead, OpenAIBackend(url(chat_server), "tiny", "", 5.0)], retries=1)
    reply = chain.complete([{"role": "user", "content": "x"}])
    assert reply.text == "fallback answer" and reply.backend == "openai"
    assert len(reply.calls) == 3 and reply.calls[-1].outcome == "ok"


def test_choose_rejects_answers_outside_the_list(chat_server) -> None:  # type: ignore[no-untyped-def]
    chat_server.replies.append((200, "I think both domain and lexical"))
    chain = LLMChain([OpenAIBackend(url(chat_server), "tiny", "", 5.0)], retries=0)
    choice, _ = chain.choose("Route", ["domain", "lexical"])
    assert choice is None


@pytest.mark.slow
def test_embedded_model_loads_offline_and_answers() -> None:
    chain = LLMChain([EmbeddedBackend()], max_tokens=8)
    reply = chain.complete([{"role": "user", "content": "Say the word yes."}])
    assert reply.backend == "embedded" and reply.text
    assert reply.calls[0].outcome == "ok"
