"""BM25 keyword index (bm25s) over normalised chunk terms, saved on disk beside the records.

Each chunk is indexed with its own terms plus its document's title, report id, version and
section path, so a question that names a report or section ranks that report's chunks first.
"""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy as np

from kb.retrieval.chunks import ChunkRecord
from kb.retrieval.normalise import term_list

# BM25 saturation and length normalisation. The default b = 0.75 let one-line captions ("Table 3:
# Batches of KX-4471 Step 1 reported to date.") outrank the procedure paragraph that states the
# fact, since every chunk also carries its section path; measured in docs/retrieval.md
K1 = 1.2
B = 0.3
# bumped whenever the terms (kb/retrieval/normalise.py) or K1 / B change: bm25s stores scores
# computed at build time, so kb/retrieval/index.py rebuilds the keyword part of an older index
VERSION = 2


def index_terms(record: ChunkRecord) -> list[str]:
    """The terms one chunk is indexed under: its text, then its metadata."""
    header = " ".join(filter(None, [record.title, record.report_id, f"version {record.version}" if record.version else "", record.section_path]))
    return term_list(record.text) + term_list(header)


class KeywordIndex:
    """Scores every chunk against a query; rows follow the records' order."""

    def __init__(self, model: bm25s.BM25 | None, size: int) -> None:
        self.model = model
        self.size = size

    @classmethod
    def build(cls, records: list[ChunkRecord]) -> KeywordIndex:
        if not records:
            return cls(None, 0)
        model = bm25s.BM25(k1=K1, b=B)
        model.index([index_terms(r) for r in records], show_progress=False)
        return cls(model, len(records))

    def save(self, folder: Path) -> None:
        if self.model is not None:
            self.model.save(str(folder), show_progress=False)

    @classmethod
    def load(cls, folder: Path, size: int) -> KeywordIndex:
        if size == 0:
            return cls(None, 0)
        return cls(bm25s.BM25.load(str(folder), show_progress=False), size)

    def scores(self, query_terms: list[str], mask: np.ndarray) -> np.ndarray:
        """BM25 score of every row (0 where the mask excludes it)."""
        if self.model is None or not query_terms:
            return np.zeros(self.size, dtype=np.float32)
        return self.model.get_scores(query_terms, weight_mask=mask.astype(np.float32)).astype(np.float32)
