"""The shared JSON-lines reader: UTF-8 (optional BOM), blank lines skipped, one object a line."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.io.validate import type_name

ProgressCallback = Callable[[int, int], None]

BOM = b"\xef\xbb\xbf"
PROGRESS_EVERY = 1000
"""Lines between two progress reports."""


class Progress:
    """Counts bytes read against a total and reports now and then, and once at the end."""

    def __init__(self, callback: ProgressCallback | None, total: int) -> None:
        self._callback = callback
        self.total = total
        self.done = 0
        self._lines = 0

    def advance(self, nbytes: int) -> None:
        """One line of `nbytes` bytes was read."""
        self.done += nbytes
        self._lines += 1
        if self._callback is not None and self._lines % PROGRESS_EVERY == 0:
            self._callback(min(self.done, self.total), self.total)

    def finish(self) -> None:
        """Everything was read: report done == total."""
        self.done = self.total
        if self._callback is not None:
            self._callback(self.total, self.total)


def max_input_bytes() -> int:
    """The most an import reads from one file (W2C_MAX_INPUT_BYTES, default 4 GiB)."""
    value = os.environ.get("W2C_MAX_INPUT_BYTES", "")
    return int(value) if value.isdigit() else 4 << 30


def check_regular(path: Path) -> int:
    """The size of `path`, a regular file no larger than `max_input_bytes()`; InputError for a
    folder, a device, pipe or socket (`/dev/zero`, a FIFO: input that may never end) or a file
    too large."""
    try:
        info = path.stat()
    except FileNotFoundError as error:
        raise InputError(str(path), "no such file or folder") from error
    except OSError as error:
        raise InputError(str(path), f"cannot read: {error.strerror or error}") from error
    if stat.S_ISDIR(info.st_mode):
        raise InputError(str(path), "expected a file, got a folder")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(
            str(path),
            "not a regular file (a device, pipe or socket, whose input may never end); "
            "save it to a file and import that",
        )
    limit = max_input_bytes()
    if info.st_size > limit:
        raise InputError(
            str(path),
            f"the file has {info.st_size:,} bytes, more than the {limit:,} an import reads "
            "(set W2C_MAX_INPUT_BYTES to allow more)",
        )
    return info.st_size


def read_bytes(path: Path) -> bytes:
    """A regular file's bytes (`check_regular`); an InputError when it cannot be read."""
    check_regular(path)
    limit = max_input_bytes()
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise InputError(str(path), f"cannot read: {error.strerror or error}") from error
    if len(data) > limit:
        raise InputError(str(path), f"the file grew past {limit:,} bytes while being read")
    return data


def sha256_hex(data: bytes) -> str:
    """The sha256 hex digest of `data`."""
    return hashlib.sha256(data).hexdigest()


def _parse_line(path: Path, number: int, raw: bytes) -> tuple[dict[str, Any], str] | None:
    """The object on one physical line and the line's text; None for a blank line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            str(path), f"not valid UTF-8: {error.reason} at byte {error.start}", line=number
        ) from error
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            str(path), f"not valid JSON: {error.msg} (column {error.colno})", line=number
        ) from error
    except (ValueError, RecursionError) as error:
        raise InputError(str(path), f"not valid JSON: {error}", line=number) from error
    if not isinstance(value, dict):
        raise InputError(str(path), f"expected a JSON object, got {type_name(value)}", line=number)
    return value, text


def _physical_lines(data: bytes) -> Iterator[tuple[int, bytes, int]]:
    """(line number, line without its ending, bytes consumed) for each line of `data`.

    Splitting bytes on LF only: str.splitlines would also split at U+2028 and friends, which
    files written with ensure_ascii=False may hold inside JSON strings.
    """
    start = len(BOM) if data.startswith(BOM) else 0
    number = 0
    size = len(data)
    while start < size:
        end = data.find(b"\n", start)
        stop = size if end < 0 else end + 1
        number += 1
        raw = data[start : end if end >= 0 else size]
        yield number, raw.removesuffix(b"\r"), stop - start
        start = stop


def iter_objects(
    path: Path, data: bytes, progress: Progress | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(1-based line number, object) for every non-blank line of `data` read from `path`."""
    for number, value, _raw in iter_lines(path, data, progress):
        yield number, value


def iter_lines(
    path: Path, data: bytes, progress: Progress | None = None
) -> Iterator[tuple[int, dict[str, Any], str]]:
    """(line number, object, the line's text without its ending) for every non-blank line."""
    for number, raw, consumed in _physical_lines(data):
        parsed = _parse_line(path, number, raw)
        if progress is not None:
            progress.advance(consumed)
        if parsed is not None:
            yield number, parsed[0], parsed[1]


def first_object(path: Path, data: bytes) -> tuple[int, dict[str, Any]] | None:
    """The first non-blank line's object in `data` (read from `path`), parsing no further than
    it; None when there is none."""
    for number, raw, _consumed in _physical_lines(data):
        parsed = _parse_line(path, number, raw)
        if parsed is not None:
            return number, parsed[0]
    return None
