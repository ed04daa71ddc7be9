"""The resolution log: one record per merge (rule, the two mentions it joined, the entity made).

Stored as PROV in `urn:kb:graph:resolution`: each merge is a `prov:Activity` that `prov:used` the
two mentions and `prov:generated` the canonical individual, with `cmc:resolutionRule` and
`cmc:resolutionDetail` (the synonym group, role or cosine). Exported as JSON by `log_json`.
"""

from __future__ import annotations

import json

from pyoxigraph import Literal, NamedNode, Quad

from kb import vocab
from kb.iris import short_hash
from kb.resolve.domain import DomainLayer
from kb.resolve.rules import Resolution


def merge_records(resolution: Resolution, layer: DomainLayer) -> list[dict[str, str]]:
    """Merges with the individual each produced, sorted by (rule, left, right)."""
    records = []
    for merge in resolution.merges:
        entity = layer.body.get(merge.left, "")
        records.append({"rule": merge.rule, "left": merge.left, "right": merge.right, "detail": merge.detail, "entity": entity})
    return sorted(records, key=lambda r: (r["rule"], r["left"], r["right"]))


def log_quads(resolution: Resolution, layer: DomainLayer, graph: str = vocab.GRAPH_RESOLUTION) -> list[Quad]:
    g = NamedNode(graph)
    out: list[Quad] = []
    for r in merge_records(resolution, layer):
        node = NamedNode(f"{layer.base}resolution/merge/{short_hash(r['rule'] + ' ' + r['left'] + ' ' + r['right'])}")
        out += [
            Quad(node, vocab.TYPE, vocab.PROV_ACTIVITY, g),
            Quad(node, vocab.RESOLUTION_RULE, Literal(r["rule"]), g),
            Quad(node, vocab.USED, NamedNode(r["left"]), g),
            Quad(node, vocab.USED, NamedNode(r["right"]), g),
        ]
        if r["detail"]:
            out.append(Quad(node, vocab.RESOLUTION_DETAIL, Literal(r["detail"]), g))
        if r["entity"]:
            out.append(Quad(node, vocab.GENERATED, NamedNode(r["entity"]), g))
    return sorted(set(out), key=str)


def log_json(resolution: Resolution, layer: DomainLayer) -> str:
    """The log as sorted JSON: merges plus merges the guards blocked."""
    blocked = sorted(({"rule": b.rule, "left": b.left, "right": b.right, "guard": b.guard} for b in resolution.blocked),
                     key=lambda r: (r["rule"], r["left"], r["right"]))
    return json.dumps({"merges": merge_records(resolution, layer), "blocked": blocked, "splits": resolution.splits},
                      indent=1, sort_keys=True, ensure_ascii=False)
