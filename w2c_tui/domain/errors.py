"""Errors that carry what a user needs to fix their input."""

from __future__ import annotations


class W2CError(Exception):
    """Base class of the errors the front ends show to users."""


class InputError(W2CError):
    """Bad input: names the file, the line and the field."""

    def __init__(
        self, path: str, message: str, line: int | None = None, field: str | None = None
    ) -> None:
        self.path = path
        self.line = line
        self.field = field
        self.message = message
        where = path if line is None else f"{path}:{line}"
        what = f" field '{field}':" if field else ""
        super().__init__(f"{where}:{what} {message}")


class NotFoundError(W2CError):
    """A dataset, item or run that the user named does not exist."""


class StrictImportError(W2CError):
    """--strict refused an import (unknown uuids or changed items)."""


class WriteError(W2CError):
    """The database did not take a write (busy past the deadline, read-only, gone).

    `retryable` says whether trying again later can succeed (a busy database) or not (a
    read-only file). The front ends keep what the user entered and offer a retry.
    """

    def __init__(self, reason: str, *, retryable: bool) -> None:
        self.reason = reason
        self.retryable = retryable
        super().__init__(reason)


class MissingExtraError(W2CError):
    """An output format needs an optional extra that is not installed (the message names it)."""
