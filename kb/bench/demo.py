"""Demo-programme benchmark: generation time and output size at scale 1 and 4."""

from __future__ import annotations

import tempfile
from pathlib import Path

from kb.bench import Measurement, benchmark

AREA = "demo"
SCALES = (1, 4)
SEED = 7


@benchmark("demo")
def demo_generation(out: Path) -> list[Measurement]:
    """Time `generate` from scratch; scale 1 has a goal of under a minute (issue 3)."""
    from kb.demo.generate import generate

    results: list[Measurement] = []
    for scale in SCALES:
        with tempfile.TemporaryDirectory() as tmp:
            result = generate(Path(tmp) / "demo", seed=SEED, scale=scale, force=True)
        params = {"scale": scale, "seed": SEED}
        results += [
            Measurement(AREA, "generation time", result.seconds, "s", params, "< 60 s at scale 1" if scale == 1 else ""),
            Measurement(AREA, "generation CPU time", result.cpu_seconds, "s", params),
            Measurement(AREA, "documents", float(result.documents), "documents", params),
            Measurement(AREA, "pages", float(result.pages), "pages", params),
            Measurement(AREA, "generation throughput", result.pages / result.seconds, "pages/s", params),
        ]
    return results
