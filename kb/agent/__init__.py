"""Question answering: router, domain agent (SPARQL templates), lexical agent (passages)."""
