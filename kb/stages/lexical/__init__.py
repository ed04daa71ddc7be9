"""Lexical layer: document trees to RDF (one named graph per document)."""
