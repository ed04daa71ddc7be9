"""Assemble ground_truth.json from the written Documents (blocks + the pages writers assigned).

Schema: docs/ground-truth.schema.json. Section paths are heading titles joined with " > " (the
document title is not part of the path); DOCX pages count explicit page breaks from page 1; PDF
pages are physical pages; PPTX pages are slide numbers.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from kb.demo.chemistry import Programme, StepState
from kb.demo.model import Block, Columns, Document, Heading, Paragraph, Sentence, Table

SCHEMA_VERSION = "1.0"


def located_sentences(doc: Document) -> Iterator[tuple[Sentence, str, int, dict[str, Any] | None]]:
    """Every sentence of a document with its section path, page and table cell (row/column)."""
    groups: list[tuple[list[Block], list[int], list[str]]] = []
    if doc.slides:
        for blocks, page in zip(doc.slides, doc.slide_pages):
            groups.append((blocks, [page] * len(blocks), []))
    else:
        groups.append((doc.blocks, doc.pages, []))
    for blocks, pages, path in groups:
        table_no = 0
        for block, page in zip(blocks, pages):
            if isinstance(block, Heading):
                if block.level >= 1:
                    del path[block.level - 1:]
                    path.append(block.text.text)
                yield block.text, " > ".join(path) if block.level >= 1 else "", page, None
            elif isinstance(block, Paragraph):
                for s in block.sentences:
                    yield s, " > ".join(path), page, None
            elif isinstance(block, Table):
                table_no += 1
                yield block.caption, " > ".join(path), page, None
                for r, row in enumerate(block.rows, start=1):
                    for col, cell in enumerate(row):
                        cell_info = {"index": table_no, "row": r, "column": col, "column_header": block.header[col]}
                        yield cell, " > ".join(path), page, cell_info
            elif isinstance(block, Columns):
                del path[:]
                path.append(block.title.text)
                yield block.title, "", page, None
                for para in [p for col in block.columns for p in col] + block.sidebar:
                    for s in para.sentences:
                        yield s, block.title.text, page, None


def _state_json(prog: Programme, state: StepState) -> dict[str, Any]:
    step = next(s for s in prog.steps if s.id == state.step)
    return {
        "step": state.step,
        "inputs": [{"entity": e, "role": r} for e, r in state.inputs],
        "outputs": list(state.outputs),
        "equipment": list(state.equipment),
        "unit_operations": list(state.unit_operations),
        "conditions": [{"kind": c.kind, "value": c.value, "unit": c.unit, "verbatim": c.verbatim,
                        "about": c.about or None} for c in state.conditions],
        "precedes": [prog.steps[step.number].id] if step.number < len(prog.steps) else [],
    }


def build(docs: list[Document], programmes: list[Programme], *, seed: int, scale: int,
          extras: dict[str, Any]) -> dict[str, Any]:
    """The whole answer key; `extras` carries scan text, German pages and reading orders."""
    entities: dict[str, dict[str, Any]] = {}
    for prog in programmes:
        for e in prog.entities.values():
            own = e.id.startswith(prog.pid(""))
            entities.setdefault(e.id, {"id": e.id, "type": e.type, "name": e.name, "forms": list(e.forms),
                                       "in_lexicon": e.in_lexicon, "programme": prog.drug if own else None})
    mentions: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    documents = []
    for doc in docs:
        pages = doc.slide_pages or doc.pages
        documents.append({
            "file": doc.file, "kind": doc.kind, "format": doc.format, "programme": doc.programme,
            "title": doc.title, "report_id": doc.report_id, "version": doc.version, "date": doc.date,
            "language": doc.language, "series": doc.series, "pages": max(pages) if pages else 1,
        })
        n = 0
        for sentence, section, page, cell in located_sentences(doc):
            for m in sentence.mentions:
                mentions.append({"document": doc.file, "section": section, "page": page, "text": sentence.text,
                                 "form": m.form, "entity": m.entity, "table": cell})
                if m.form not in entities[m.entity]["forms"]:
                    entities[m.entity]["forms"].append(m.form)
            for f in sentence.facts:
                n += 1
                facts.append({"id": f"{doc.file}#F{n:04d}", "kind": f.kind, "subject": f.subject, "value": f.value,
                              "document": doc.file, "section": section, "page": page, "text": sentence.text,
                              "table": cell, "series": doc.series, "version": doc.version, "date": doc.date})
    by_prog = {p.drug: p for p in programmes}
    relations = [{"document": d.file, **_state_json(by_prog[d.programme], st)} for d in docs for st in d.states]
    series = _series(docs)
    history = _history(facts)
    used = {m["entity"] for m in mentions}
    gt = {
        "schema_version": SCHEMA_VERSION,
        "generator": {"name": "kb.demo", "seed": seed, "scale": scale},
        "programmes": [{"drug": p.drug, "index": p.index, "intermediate_prefix": p.prefix,
                        "steps": [s.id for s in p.steps]} for p in programmes],
        "documents": documents,
        "series": series,
        "entities": sorted((e for e in entities.values() if e["id"] in used), key=lambda e: e["id"]),
        "steps": [{"id": s.id, "programme": p.drug, "number": s.number, "name": s.name,
                   "report_series": s.series, "prose_only": s.prose_only,
                   "changes": [{"version": c.version, "description": c.description} for c in s.changes]}
                  for p in programmes for s in p.steps],
        "route": [_state_json(p, s.state(99)) for p in programmes for s in p.steps],
        "relations": relations,
        "mentions": mentions,
        "facts": facts,
        "fact_history": history,
        "hard_cases": _hard_cases(programmes, facts, mentions, history),
        **extras,
    }
    gt["question_classes"] = _questions(gt, programmes)
    return gt


def _series(docs: list[Document]) -> list[dict[str, Any]]:
    grouped: dict[str, list[Document]] = defaultdict(list)
    for d in docs:
        if d.series:
            grouped[d.series].append(d)
    return [{"report_id": rid, "title": ds[0].title, "programme": ds[0].programme,
             "versions": [{"file": d.file, "version": d.version, "date": d.date}
                          for d in sorted(ds, key=lambda d: d.version)]}
            for rid, ds in sorted(grouped.items())]


def _history(facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (series, kind, subject): the value at each version; kept when the value changes."""
    grouped: dict[tuple[str, str, str], dict[int, dict[str, Any]]] = defaultdict(dict)
    for f in facts:
        if f["series"]:
            grouped[(f["series"], f["kind"], f["subject"])].setdefault(f["version"], f)
    out = []
    for (series, kind, subject), per_version in sorted(grouped.items()):
        values = [per_version[v]["value"] for v in sorted(per_version)]
        if len(set(values)) < 2:
            continue
        versions = [{"version": v, "file": f["document"], "date": f["date"], "value": f["value"], "fact": f["id"]}
                    for v, f in sorted(per_version.items())]
        changes = [b for a, b in itertools.pairwise(versions) if a["value"] != b["value"]]
        out.append({"key": f"{series}|{kind}|{subject}", "series": series, "kind": kind, "subject": subject,
                    "versions": versions,
                    "changes": [{"version": c["version"], "file": c["file"], "date": c["date"], "value": c["value"],
                                 "previous": next(v["value"] for v in reversed(versions) if v["version"] < c["version"])}
                                for c in changes]})
    return out


def _hard_cases(programmes: list[Programme], facts: list[dict[str, Any]], mentions: list[dict[str, Any]],
                history: list[dict[str, Any]]) -> dict[str, Any]:
    forms: dict[str, set[str]] = defaultdict(set)
    docs_of: dict[str, set[str]] = defaultdict(set)
    for m in mentions:
        forms[m["entity"]].add(m["form"])
        docs_of[m["entity"]].add(m["document"])
    aliases = [{"entity": e, "forms": sorted(forms[e]), "documents": len(docs_of[e])}
               for e in ("acetonitrile", "2-methf", "isopropanol", "mtbe", "hydroxylamine-hcl", "pd-dppf")]
    prog = programmes[0]
    lots = sorted({f["subject"] for f in facts if f["kind"] == "batch yield" and f["subject"].startswith(
        f"{prog.lot_prefix}2-")})
    near = [
        {"a": "thf", "b": "2-methf", "kind": "substance", "why": "different solvents with similar names"},
        {"a": prog.pid("free-base"), "b": prog.pid("hcl-salt"), "kind": "substance",
         "why": "free base versus its hydrochloride salt"},
        {"a": "hydrogen-chloride", "b": "hydrochloric-acid", "kind": "substance",
         "why": "anhydrous HCl in IPA versus aqueous acid"},
        {"a": lots[0], "b": lots[1], "kind": "lot", "why": "lot numbers one digit apart"},
    ]
    prose_keys = {(f["kind"], f["subject"], f["value"]) for f in facts if f["table"] is None}
    table_only = [f["id"] for f in facts if f["table"] is not None
                  and (f["kind"], f["subject"], f["value"]) not in prose_keys]
    return {
        "alias_groups": aliases,
        "near_misses": near,
        "table_only_facts": table_only,
        "changed_facts": [h["key"] for h in history],
        "prose_only_steps": [s.id for p in programmes for s in p.steps if s.prose_only],
    }


def _questions(gt: dict[str, Any], programmes: list[Programme]) -> list[dict[str, Any]]:
    """List-answer question classes with gold answers computed from the relations."""
    steps_with: dict[str, set[str]] = defaultdict(set)
    for r in gt["relations"]:
        for i in r["inputs"]:
            steps_with[i["entity"]].add(r["step"])
    out: list[dict[str, Any]] = [
        {"class": "overlap", "question": "Which process steps use both water and 2-MeTHF?",
         "answer": sorted(steps_with["water"] & steps_with["2-methf"])},
        {"class": "fan-in", "question": "Which process steps take 2-MeTHF as an input?",
         "answer": sorted(steps_with["2-methf"])},
        {"class": "overlap", "question": "Which process steps use both THF and water?",
         "answer": sorted(steps_with["thf"] & steps_with["water"])},
    ]
    prog = programmes[0]
    route = [r for r in gt["route"] if r["step"] in {s.id for s in prog.steps}]
    out.append({"class": "connectivity",
                "question": f"How does {prog.entity(prog.pid('aldehyde')).name} connect to "
                            f"{prog.entity(prog.pid('hcl-salt')).name}?",
                "answer": [x for r in route for x in (r["step"], r["outputs"][0])]})
    by_series: dict[str, set[str]] = defaultdict(set)
    for r in gt["relations"]:
        doc = next(d for d in gt["documents"] if d["file"] == r["document"])
        for i in r["inputs"]:
            by_series[doc["series"]].add(i["entity"])
    for sid, ents in sorted(by_series.items()):
        others = set().union(*(v for k, v in by_series.items() if k != sid))
        out.append({"class": "exclusivity", "question": f"Which substances are step inputs only in report {sid}?",
                    "answer": sorted(ents - others)})
    counts: dict[str, int] = defaultdict(int)
    for r in gt["route"]:
        for i in r["inputs"]:
            if i["role"] == "solvent":
                counts[i["entity"]] += 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    out.append({"class": "counting", "question": "Which three solvents are used in the most steps of the current routes?",
                "answer": [k for k, _ in top]})
    for h in gt["fact_history"][:40]:
        out.append({"class": "evolution", "question": f"When did the {h['kind']} of {h['subject']} change in "
                                                      f"{h['series']}?",
                    "answer": [f"{c['file']}: {c['previous']} -> {c['value']}" for c in h["changes"]]})
    return out
