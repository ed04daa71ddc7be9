"""The inferred-consistency report (reasoner verdict, SHACL results, ontology QC) and `kb check`."""

from kb.report.builder import build_report, render_html, render_markdown, write_report
from kb.report.check import CheckResult, run_check

__all__ = ["CheckResult", "build_report", "render_html", "render_markdown", "run_check", "write_report"]
