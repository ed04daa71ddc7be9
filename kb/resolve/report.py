"""The counts printed at the end of `kb resolve` (and by the pipeline stage)."""

from __future__ import annotations


def summary_lines(counts: dict[str, object]) -> list[str]:
    """Mentions, entities by type, merges by rule, splits, singletons, anchoring."""
    entities: dict[str, int] = counts["entities"]  # type: ignore[assignment]
    merges: dict[str, int] = counts["merges"]  # type: ignore[assignment]
    total = int(counts["total"])  # type: ignore[call-overload]
    anchored = int(counts["anchored"])  # type: ignore[call-overload]
    share = f"{100 * anchored / total:.1f}%" if total else "n/a"
    return [
        f"mentions: {counts['mentions']}",
        "canonical entities: " + ", ".join(f"{k} {v}" for k, v in entities.items()) + f" (total {sum(entities.values())})",
        f"role individuals: {counts['role_individuals']}",
        "merges: " + ", ".join(f"{k} {v}" for k, v in merges.items()) + f" (total {sum(merges.values())}; blocked by guards {counts['blocked']})",
        f"category splits: {counts['splits']}",
        f"singletons: {counts['singletons']}",
        f"relations: {counts['relations']}; conditions: {counts['conditions']}",
        f"anchored: {anchored} ({share}); one hop: {counts['one_hop']}; unanchored: {counts['unanchored']}",
    ]
