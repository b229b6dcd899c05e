"""Many refused rows of one file told as one error (nothing of the file is stored)."""

from __future__ import annotations

from w2c_tui.domain.errors import InputError

MAX_REFUSED_SHOWN = 20
"""Refused rows named in the message (the count covers them all)."""


def refused_rows(path: str, refused: list[InputError]) -> InputError:
    """The first refused row's error, its message followed by how many rows were refused and
    where each of the next ones is (line, field, reason)."""
    first = refused[0]
    if len(refused) == 1:
        return first
    more = "; ".join(
        f"line {e.line}" + (f" field '{e.field}'" if e.field else "") + f": {e.message}"
        for e in refused[1:MAX_REFUSED_SHOWN]
    )
    extra = len(refused) - MAX_REFUSED_SHOWN
    tail = f"; and {extra} more" if extra > 0 else ""
    return InputError(
        path,
        f"{first.message} ({len(refused)} rows refused, nothing imported; also {more}{tail})",
        first.line,
        first.field,
    )
