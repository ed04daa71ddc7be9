"""Context around a hit: neighbours along reading order, and the whole section it belongs to.

A table row window or a one-line paragraph often needs the sentence before it (or the section
heading path) to be read correctly; the agent asks for this context after ranking.
"""

from __future__ import annotations

from kb.retrieval.chunks import ChunkRecord
from kb.retrieval.index import PassageIndex


def record_of(index: PassageIndex, iri: str) -> ChunkRecord:
    return index.records[index.row_of[iri]]


def neighbours(index: PassageIndex, iri: str, *, before: int = 1, after: int = 1) -> list[ChunkRecord]:
    """The chunk and up to ``before``/``after`` chunks around it in its document's reading order."""
    record = record_of(index, iri)
    chunks = index.by_graph[record.graph]
    position = next(i for i, r in enumerate(chunks) if r.iri == iri)
    return chunks[max(0, position - before) : position + after + 1]


def section_chunks(index: PassageIndex, iri: str) -> list[ChunkRecord]:
    """Every chunk of the section the chunk belongs to (directly), in reading order."""
    record = record_of(index, iri)
    if not record.section:
        return [record]
    return [r for r in index.by_graph[record.graph] if r.section == record.section]


def chapter_chunks(index: PassageIndex, iri: str) -> list[ChunkRecord]:
    """Every chunk under the chunk's top-level section ("4 Step 2: dehydration to nitrile" with
    its Procedure, Batches and Solvent screen subsections), in reading order: a step's yield is
    stated in its procedure, far from the background paragraph that names the step."""
    record = record_of(index, iri)
    top = record.section_path.split(" > ")[0]
    if not top:
        return [record]
    return [r for r in index.by_graph[record.graph] if r.section_path.split(" > ")[0] == top]


def context_text(index: PassageIndex, iri: str, *, before: int = 1, after: int = 1, section: bool = False) -> str:
    """Readable context: the section path, then the neighbouring (or section) chunks' text."""
    record = record_of(index, iri)
    chunks = section_chunks(index, iri) if section else neighbours(index, iri, before=before, after=after)
    header = record.section_path or record.title
    return "\n\n".join([header] + [c.text for c in chunks]) if header else "\n\n".join(c.text for c in chunks)
