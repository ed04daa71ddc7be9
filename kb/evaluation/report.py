"""The evaluation report: JSON, Markdown and HTML, with matplotlib plots beside them."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

SYSTEM_LABELS = {"router": "router (domain + lexical)", "lexical": "lexical agent", "domain": "domain agent", "bm25": "BM25 passages", "dense": "dense passages (vector RAG)"}


def num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def pct(r: dict[str, float]) -> str:
    return f"{100 * r['rate']:.1f}% ({r['k']}/{r['n']}, CI {100 * r['low']:.1f}-{100 * r['high']:.1f})"


def plot(summary: dict[str, Any], out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    files = []
    systems = list(summary)
    fig, ax = plt.subplots(figsize=(9, 4))
    x = np.arange(len(systems))
    for offset, tier, colour in ((-0.2, "tier1", "#4c9a2a"), (0.2, "tier2", "#7b4ea3")):
        rates = [summary[s][tier]["rate"] * 100 for s in systems]
        errors = [[(summary[s][tier]["rate"] - summary[s][tier]["low"]) * 100 for s in systems],
                  [(summary[s][tier]["high"] - summary[s][tier]["rate"]) * 100 for s in systems]]
        ax.bar(x + offset, rates, 0.4, yerr=errors, capsize=3, color=colour, label="Tier 1 (letter)" if tier == "tier1" else "Tier 2 (free form, pass >= 4)")
    ax.set_xticks(x, [SYSTEM_LABELS.get(s, s) for s in systems], rotation=15, fontsize=8)
    ax.set_ylabel("% correct (Wilson 95% CI)")
    ax.set_ylim(0, 105)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "tiers.png", dpi=110)
    plt.close(fig)
    files.append("tiers.png")
    cohorts = sorted({c for s in systems for c in summary[s]["cohorts"]})
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    width = 0.8 / max(1, len(systems))
    for ax, tier in zip(axes, ("tier1", "tier2")):
        for i, s in enumerate(systems):
            rates = [summary[s]["cohorts"].get(c, {}).get(tier, {"rate": 0})["rate"] * 100 for c in cohorts]
            ax.bar(np.arange(len(cohorts)) + i * width, rates, width, label=SYSTEM_LABELS.get(s, s))
        ax.set_xticks(np.arange(len(cohorts)) + 0.4 - width / 2, cohorts, fontsize=8, rotation=10)
        ax.set_title("Tier 1" if tier == "tier1" else "Tier 2")
    axes[0].set_ylabel("% correct")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "cohorts.png", dpi=110)
    plt.close(fig)
    files.append("cohorts.png")
    return files


def kappa(value: float) -> str:
    """Kappa is undefined when every item lands in one cell (chance agreement 1): say so."""
    return "n/a (all agree)" if math.isnan(value) else f"{value:.2f}"


def cited_cell(cited: dict[str, int]) -> str:
    """'225 / 225 of 225': items with a citation / items whose quotes are all verbatim, of all items."""
    return f"{cited['cited']} / {cited['verbatim']} of {cited['items']}" if cited["items"] else "-"


def markdown(summary: dict[str, Any], meta: dict[str, Any], taxonomy: dict[str, int] | None) -> str:
    lines = ["# Evaluation report", "", (f"Bank: {meta['questions']} questions ({meta['mcq']} multiple choice, {meta['lists']} list) from "
                                         f"`{meta['ground_truth']}`; LLM backend `{meta['llm']}`; run took {meta['seconds']:.0f} s on {meta['machine']}."), "",
             "![Tier 1 and Tier 2 per system](tiers.png)", "", "![Per cohort](cohorts.png)", "",
             "| system | Tier 1 | Tier 2 | kappa | list precision | list recall | fact accuracy | items cited / verbatim | routing | p50 s | p95 s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in summary.items():
        lists, cited = s["lists"], s["citations"]
        lines.append(f"| {SYSTEM_LABELS.get(name, name)} | {pct(s['tier1'])} | {pct(s['tier2'])} | {kappa(s['contingency']['kappa'])} | "
                     f"{num(lists['precision'])} | {num(lists['recall'])} | {pct(s['fact_accuracy'])} | "
                     f"{cited_cell(cited)} | "
                     f"{pct(s['routing_accuracy']) if name == 'router' else '-'} | {s['latency_p50_s']:.3f} | {s['latency_p95_s']:.3f} |")
    lines += ["", "## Per cohort", "", "| system | cohort | Tier 1 | Tier 2 | T1&T2 | T1 only | T2 only | neither | kappa | trap |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in summary.items():
        for cohort, c in s["cohorts"].items():
            t = c["contingency"]
            lines.append(f"| {name} | {cohort} | {pct(c['tier1'])} | {pct(c['tier2'])} | {t['both_pass']} | {t['t1_only']} | {t['t2_only']} | "
                         f"{t['both_fail']} | {kappa(t['kappa'])} | {c['quadrants'].get('trap', 0)} |")
    lines += ["", "## Judge x similarity quadrants (pooled)", "", "| system | on-topic | paraphrased | trap | off-topic |", "| --- | --- | --- | --- | --- |"]
    for name, s in summary.items():
        q = s["quadrants"]
        lines.append(f"| {name} | {q.get('on_topic', 0)} | {q.get('paraphrased', 0)} | {q.get('trap', 0)} | {q.get('off_topic', 0)} |")
    lines += ["", "## Tier 3 failure taxonomy", ""]
    if taxonomy:
        lines += ["| failure code | items |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in taxonomy.items()]
    else:
        lines.append(f"Review sheet exported to `{meta['review_csv']}`; no coded review has been imported yet (`kb eval --taxonomy FILE`).")
    return "\n".join(lines) + "\n"


def write_report(out: Path, summary: dict[str, Any], rows: list[dict[str, Any]], meta: dict[str, Any], taxonomy: dict[str, int] | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    plot(summary, out)
    (out / "report.json").write_text(json.dumps({"meta": meta, "summary": summary, "taxonomy": taxonomy, "items": rows}, indent=1, default=str) + "\n")
    text = markdown(summary, meta, taxonomy)
    (out / "report.md").write_text(text)
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    style = "body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
    (out / "report.html").write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>CMC-KB evaluation</title><style>{style}</style></head><body>{body}</body></html>\n")
