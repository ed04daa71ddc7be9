"""One exception family, so the CLI and the web layer can report every failure the same way."""

from __future__ import annotations


class KBWarning(UserWarning):
    """Warnings raised by CMC-KB itself (turned into errors in the test suite)."""


class KBError(Exception):
    """Base error: a one-line message, an optional hint and a link to the relevant docs."""

    code = "KB000"
    exit_status = 3
    http_status = 500

    def __init__(self, message: str, *, hint: str | None = None, link: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.link = link

    def to_dict(self) -> dict[str, object]:
        """JSON error shape shared by the CLI (--json) and the Flask error handler."""
        return {
            "ok": False,
            "error": self.message,
            "errors": [self.message] + ([self.hint] if self.hint else []),
            "code": self.code,
            "status": self.http_status,
        }


class ConfigError(KBError):
    code = "KB100"
    exit_status = 2
    http_status = 400


class UnknownNameError(ConfigError):
    code = "KB101"

    def __init__(self, kind: str, name: str, available: list[str]) -> None:
        listing = ", ".join(sorted(available)) or "none"
        super().__init__(f"Unknown {kind} '{name}'; available: {listing}")


class InputFileError(KBError):
    """A source file that cannot be ingested (corrupt, encrypted, empty, too large, wrong type)."""

    code = "KB200"
    exit_status = 1
    http_status = 422

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class StageError(KBError):
    code = "KB300"


class StoreError(KBError):
    code = "KB400"


class QueryError(KBError):
    code = "KB500"
    exit_status = 2
    http_status = 400


class ReasonerError(KBError):
    code = "KB600"


ERROR_CLASSES: tuple[type[KBError], ...] = (
    KBError,
    ConfigError,
    UnknownNameError,
    InputFileError,
    StageError,
    StoreError,
    QueryError,
    ReasonerError,
)
