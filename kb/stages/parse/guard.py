"""Checks that run before any parser touches a file: size, type, zip bombs, emptiness.

A hostile or broken file must end in one clear InputFileError, never a crash or a hang.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from kb.errors import InputFileError

ZIP_FORMATS = {".docx", ".pptx", ".xlsx"}
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Office encrypts OOXML files into an OLE container


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int
    max_unzipped_bytes: int
    max_zip_entries: int
    max_pages: int
    ocr_languages: str = "eng+deu+fra"
    ocr_dpi: int = 300
    ocr_timeout_s: float = 300.0  # per file, over all its OCR'd pages
    ocr_threads: int = 1  # concurrent Tesseract processes per parse worker
    max_image_pixels: int = 80_000_000
    detect_languages: str = "en,de,fr"  # ISO 639-1 codes for language identification; "" turns it off


def check_file(path: Path, data: bytes, limits: Limits) -> None:
    """Refuse empty, oversized and zip-bomb files before parsing."""
    if not data:
        raise InputFileError(str(path), "empty file")
    if len(data) > limits.max_file_bytes:
        raise InputFileError(str(path), f"file is {len(data)} bytes, over the limit of {limits.max_file_bytes}")
    if path.suffix.lower() in ZIP_FORMATS and data.startswith(OLE_MAGIC):
        raise InputFileError(str(path), "encrypted (password-protected) or legacy binary Office file, not an OOXML zip")
    if path.suffix.lower() in ZIP_FORMATS:
        check_zip(path, limits)


def check_zip(path: Path, limits: Limits) -> None:
    """Office files are zips: refuse non-zips, too many entries, or too much expanded data."""
    if not zipfile.is_zipfile(path):
        raise InputFileError(str(path), f"not a valid {path.suffix.lstrip('.').upper()} file (not a zip archive)")
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise InputFileError(str(path), f"corrupt zip archive: {exc}") from exc
    if len(infos) > limits.max_zip_entries:
        raise InputFileError(str(path), f"zip has {len(infos)} entries, over the limit of {limits.max_zip_entries}")
    expanded = sum(i.file_size for i in infos)
    if expanded > limits.max_unzipped_bytes:
        raise InputFileError(
            str(path), f"zip expands to {expanded} bytes, over the limit of {limits.max_unzipped_bytes}"
        )
