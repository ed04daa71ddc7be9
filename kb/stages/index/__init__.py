"""Stages that keep the retrieval indexes in step with the lexical layer."""
