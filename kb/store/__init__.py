"""Store adapters behind one protocol; pick one by name with `open_store`."""

from __future__ import annotations

from kb.store.protocol import GraphStore, open_store

__all__ = ["GraphStore", "open_store"]
