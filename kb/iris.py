"""Deterministic IRIs: derived from content hashes and structural position, never run order."""

from __future__ import annotations

import hashlib
import re
import unicodedata


def short_hash(text: str, length: int = 16) -> str:
    """First hex digits of SHA-256: stable across machines and runs."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def doc_id(source_name: str) -> str:
    """Identity of a source file: its path relative to the ingested folder, hashed."""
    return short_hash(source_name.replace("\\", "/"))


def document_iri(base: str, doc: str) -> str:
    return f"{base}doc/{doc}"


def section_iri(base: str, doc: str, path: tuple[int, ...]) -> str:
    return f"{base}doc/{doc}/section/{'.'.join(str(p) for p in path)}"


def chunk_iri(base: str, doc: str, index: int) -> str:
    return f"{base}doc/{doc}/chunk/{index}"


def slug(text: str, max_length: int = 60) -> str:
    """Readable IRI segment: ASCII, lower case, hyphens; a hash suffix keeps it unique."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:max_length].strip("-")
    return f"{cleaned or 'x'}-{short_hash(text, 8)}"
