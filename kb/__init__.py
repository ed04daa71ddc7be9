"""CMC-KB: provenance-anchored RDF knowledge base for CMC process development."""
__version__ = "0.1.0"
