"""Byte-identical output: fixed timestamps in OOXML zip containers and document metadata."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

FIXED_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def normalise_zip(data: bytes) -> bytes:
    """Rewrite an OOXML package with fixed entry dates and permissions (entry order is kept).

    python-docx and python-pptx stamp each zip entry with the current time, so two runs differ.
    """
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            dst.writestr(entry, src.read(info.filename))
    return out.getvalue()


def fixed_datetime(date: str) -> dt.datetime:
    """The document's own date at noon UTC: used for created/modified properties."""
    return dt.datetime.fromisoformat(date).replace(hour=12, tzinfo=None)


def pdf_date(date: str) -> str:
    """PDF date string for an ISO date (D:YYYYMMDDHHmmSS)."""
    return "D:" + date.replace("-", "") + "120000Z"
