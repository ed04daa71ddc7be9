"""Report id, version and date from what a file states: properties, first page text, file name."""

from __future__ import annotations

import re
from dataclasses import dataclass

# letters and digits bound the id, version and date, not \b: in a file name "TR-2019-014_v9_2019-11-30.docx"
# the underscore is a word character, and a question may quote that file name
REPORT_ID = re.compile(r"(?<![A-Za-z0-9])([A-Z]{2,5}-\d{4}-\d{2,4})(?![A-Za-z0-9-])")
VERSION = re.compile(r"(?<![A-Za-z])(?:version\s*|v\.?\s?|rev(?:ision)?\.?\s*)(\d+(?:\.\d+)?)(?!\d)", re.IGNORECASE)
DATE = re.compile(r"(?<![\d-])(\d{4}-\d{2}-\d{2})(?![\d-])")


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
