"""Hybrid passage retrieval over the lexical layer: BM25 + dense vectors, fused, filtered.

The agent calls :func:`kb.retrieval.search.search`; indexes live on disk under ``index.path``
and are kept in step with the store by :func:`kb.retrieval.index.update_index`.
"""
