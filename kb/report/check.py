"""`kb check` as a plain function: reason, validate, QC, write the report, return the exit status."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.ontology import load_module, ontology_graphs
from kb.report.builder import build_report, write_report
from kb.report.qc import ontology_qc
from kb.stages.reason import reason
from kb.stages.validate import validate
from kb.store.protocol import GraphStore
from kb.vocab import GRAPH_ONTOLOGY


@dataclass
class CheckResult:
    report: dict[str, Any]
    files: list[Path]

    @property
    def exit_status(self) -> int:
        """pySHACL convention: 1 when inconsistent or any Violation, else 0."""
        return 0 if self.report["verdict"] == "PASS" else 1


def run_check(store: GraphStore, *, engine: str = "hermit", out_dir: Path | None = None) -> CheckResult:
    """Run the whole check; loads the own ontology module first when the store has none."""
    if GRAPH_ONTOLOGY not in ontology_graphs(store):
        load_module(store)
    reasoning = reason(store, engine=engine)
    validation = validate(store)
    report = build_report(store, reasoning, validation, ontology_qc(store))
    files = write_report(store, report, out_dir) if out_dir is not None else []
    return CheckResult(report, files)
