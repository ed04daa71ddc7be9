"""Report id, version and date from what a file states: properties, first page text, file name."""

from __future__ import annotations

import re
from dataclasses import dataclass

REPORT_ID = re.compile(r"\b([A-Z]{2,5}-\d{4}-\d{2,4})\b")
VERSION = re.compile(r"(?:\bversion\s*|\bv\.?\s?|\brev(?:ision)?\.?\s*)(\d+(?:\.\d+)?)\b", re.IGNORECASE)
DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")


@dataclass
class StatedMetadata:
    """Field names match ParsedDocument's, so parsers pass ``**asdict(stated)``."""

    report_id: str = ""
    version: str = ""
    date: str = ""


def first_match(pattern: re.Pattern[str], *texts: str) -> str:
    for text in texts:
        if text:
            found = pattern.search(text)
            if found:
                return found.group(1)
    return ""


def stated_metadata(*texts: str) -> StatedMetadata:
    """Search the texts in order (most authoritative first) for id, version and date."""
    return StatedMetadata(
        report_id=first_match(REPORT_ID, *texts),
        version=first_match(VERSION, *texts),
        date=first_match(DATE, *texts),
    )
