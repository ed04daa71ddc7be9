"""Global entity resolution: document-local mentions become canonical, provenance-anchored individuals.

Stages: inputs (read mentions, chunks, documents) -> rules (union-find merges in precedence order,
guarded) -> category (BFO consistency split) -> naming (preferred labels) -> domain (RDF of the
domain graph with reification and per-version conditions) and log (which rule merged what).
"""
