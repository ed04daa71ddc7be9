"""Tier 3: export items for expert review as CSV, read the coded file back into a failure taxonomy.

Exported: every Tier-1/Tier-2 disagreement, a stratified sample of double fails (per cohort) and a
thin sample of double passes (mis-keyed gold screen). The reviewer fills `failure_code`.
"""

from __future__ import annotations

import csv
import random
from collections import Counter
from pathlib import Path

from kb.evaluation.bank import Question
from kb.evaluation.run import Scored

FAILURE_CODES = ("ambiguous_question", "extraction_error", "letter_parse_error", "judge_error", "reasoning_failure", "abstain")
COLUMNS = ["question", "system", "cohort", "stratum", "stem", "gold", "letter", "t1", "t2_score", "answer", "evidence_quote", "failure_code", "note"]


def select_for_review(scored: list[Scored], *, seed: int = 7, fails_per_cohort: int = 5, passes: int = 5) -> list[tuple[str, Scored]]:
    rng = random.Random(seed)
    mcq = [s for s in scored if s.t1 is not None]
    chosen = [("disagreement", s) for s in mcq if s.t1 != s.t2]
    for cohort in sorted({s.cohort for s in mcq}):
        fails = [s for s in mcq if s.cohort == cohort and not s.t1 and not s.t2]
        chosen += [("double_fail", s) for s in rng.sample(fails, min(fails_per_cohort, len(fails)))]
    double_pass = [s for s in mcq if s.t1 and s.t2]
    chosen += [("double_pass", s) for s in rng.sample(double_pass, min(passes, len(double_pass)))]
    return chosen


def export_review(path: Path, chosen: list[tuple[str, Scored]], bank: dict[str, Question]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for stratum, s in chosen:
            q = bank[s.question]
            writer.writerow({"question": s.question, "system": s.system, "cohort": s.cohort, "stratum": stratum, "stem": q.stem,
                             "gold": f"{q.correct}: {q.options.get(q.correct, '')}", "letter": s.letter or "", "t1": s.t1,
                             "t2_score": s.t2_score, "answer": s.answer[:500], "evidence_quote": q.evidence_quote, "failure_code": "", "note": ""})


def read_taxonomy(path: Path) -> dict[str, int]:
    """Counts per failure code from a reviewed CSV; unknown codes are refused by name."""
    counts: Counter[str] = Counter()
    with path.open(newline="", encoding="utf-8") as handle:
        for number, row in enumerate(csv.DictReader(handle), start=2):
            code = (row.get("failure_code") or "").strip()
            if not code:
                continue
            if code not in FAILURE_CODES:
                raise ValueError(f"{path}:{number}: unknown failure_code {code!r}; use one of {', '.join(FAILURE_CODES)}")
            counts[code] += 1
    return dict(sorted(counts.items()))
