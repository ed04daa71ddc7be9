"""Benchmarks: each area registers functions that return measurements; `kb bench` runs them.

Speed is a benchmark, not a timed test: results go to JSON and a PNG plot, with the machine noted.
"""

from __future__ import annotations

import importlib
import json
import platform
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

from kb import __version__


@dataclass(frozen=True)
class Measurement:
    """One figure: e.g. area='ingest', name='pdf pages/s', value=41.2, unit='pages/s'."""

    area: str
    name: str
    value: float
    unit: str
    params: dict[str, Any] = field(default_factory=dict)
    goal: str = ""


Benchmark = Callable[[Path], list[Measurement]]
BENCHMARKS: dict[str, Benchmark] = {}

# modules that register benchmarks on import; each area adds its own
BENCH_MODULES: tuple[str, ...] = ("kb.bench.ingest", "kb.bench.retrieval", "kb.bench.demo", "kb.bench.agent", "kb.bench.endpoint", "kb.bench.extract", "kb.bench.reasoning", "kb.bench.resolve", "kb.bench.web")


def benchmark(name: str) -> Callable[[Benchmark], Benchmark]:
    """Register a benchmark under a name (`kb bench --only NAME`)."""

    def wrap(fn: Benchmark) -> Benchmark:
        BENCHMARKS[name] = fn
        return fn

    return wrap


def load_benchmarks() -> dict[str, Benchmark]:
    for module in BENCH_MODULES:
        importlib.import_module(module)
    return BENCHMARKS


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": psutil.cpu_count(logical=True),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "kb_version": __version__,
    }


def write_results(out_dir: Path, results: list[Measurement], *, partial: bool) -> Path:
    """Merge into out_dir/results.json (a partial run keeps other areas' figures) and plot."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "results.json"
    previous: list[dict[str, Any]] = []
    if partial and path.is_file():
        previous = json.loads(path.read_text())["results"]
    fresh = [asdict(m) for m in results]
    fresh_keys = {(m["area"], m["name"], json.dumps(m["params"], sort_keys=True)) for m in fresh}
    kept = [m for m in previous if (m["area"], m["name"], json.dumps(m["params"], sort_keys=True)) not in fresh_keys]
    merged = sorted(kept + fresh, key=lambda m: (m["area"], m["name"], json.dumps(m["params"], sort_keys=True)))
    path.write_text(json.dumps({"machine": machine(), "results": merged}, indent=2) + "\n")
    plot_results(merged, out_dir / "results.png")
    return path


def plot_results(results: list[dict[str, Any]], png: Path) -> None:
    """One horizontal bar panel per unit, so figures of one kind are compared side by side."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    units = sorted({r["unit"] for r in results})
    if not units:
        return
    fig, axes = plt.subplots(len(units), 1, figsize=(10, 1.2 + 0.35 * len(results) + 0.6 * len(units)), squeeze=False)
    for ax, unit in zip(axes[:, 0], units):
        rows = [r for r in results if r["unit"] == unit]
        labels = [
            f"{r['area']}: {r['name']}" + (f" {r['params']}" if r["params"] else "") for r in rows
        ]
        ax.barh(range(len(rows)), [r["value"] for r in rows], color="#3b6ea5")
        ax.set_yticks(range(len(rows)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        for i, r in enumerate(rows):
            ax.annotate(f"{r['value']:.3g}", (r["value"], i), fontsize=7, va="center")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
