"""SHACL validation of the lexical and domain layers (pySHACL over pyoxigraph)."""

from kb.stages.validate.shacl import ShaclResult, ValidationOutcome, validate

__all__ = ["ShaclResult", "ValidationOutcome", "validate"]
