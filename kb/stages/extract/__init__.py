"""Deterministic, ontology-typed extraction with exact source spans (docs/extraction.md).

`extract_chunk(chunk)` gives a chunk's mentions, `extract_relations(chunks, mentions)` the per-step
relations; the registered stage `extract.mentions.v1` (kb.stages.extract.stage) runs both over a
store and replaces the mentions graph.
"""

from kb.stages.extract.mentions import Cell, Chunk, Mention
from kb.stages.extract.pipeline import extract_chunk
from kb.stages.extract.relations import Relation, extract_relations

__all__ = ["Cell", "Chunk", "Mention", "Relation", "extract_chunk", "extract_relations"]
