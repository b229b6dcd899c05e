"""What an importer declares (its kind, a sniff and a reader) and what it is handed: a file's
bytes, read from disk once."""

from __future__ import annotations

from collections.abc import Callable, KeysView
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from w2c_tui.domain.critictool import CriticToolFile
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.records import ImportBundle
from w2c_tui.io.jsonl import BOM, ProgressCallback, first_object, read_bytes
from w2c_tui.io.options import ReadOptions

HEAD_BYTES = 1 << 20
"""How much of a file a content sniff may look at."""


class Source:
    """One input: a file's bytes (read once, on first use) or a folder (no bytes)."""

    def __init__(self, path: Path, data: bytes | None = None) -> None:
        self.path = path
        self._data = data

    @property
    def is_dir(self) -> bool:
        return self._data is None and self.path.is_dir()

    @property
    def data(self) -> bytes:
        """All of the file (`jsonl.read_bytes`: a regular file within the size limit)."""
        if self._data is None:
            self._data = read_bytes(self.path)
        return self._data

    @cached_property
    def head(self) -> str:
        """The file's first `HEAD_BYTES` as text (`head_text`)."""
        return head_text(self.data[:HEAD_BYTES])

    @cached_property
    def first(self) -> tuple[int, dict[str, Any]]:
        """(line number, object) of the first non-blank JSON line; InputError when it is not a
        JSON object or there is none."""
        first = first_object(self.path, self.data)
        if first is None:
            raise InputError(str(self.path), "the file holds no JSON lines: cannot tell its kind")
        return first

    @property
    def first_keys(self) -> KeysView[str]:
        """The keys of the first JSON line's object."""
        return self.first[1].keys()


def head_text(raw: bytes) -> str:
    """A file's first bytes as text: no BOM, a character cut at the end left out; empty when
    they are not UTF-8."""
    raw = raw.removeprefix(BOM)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(raw) - 3:
            return ""
        return raw[: error.start].decode("utf-8")


Read = ImportBundle | CriticToolFile
Reader = Callable[[Source, ReadOptions, ProgressCallback | None], Read]


@dataclass(frozen=True, slots=True)
class Importer:
    """One import format."""

    kind: str
    sniff: Callable[[Source], bool]
    """True when the file is of this kind, from its first bytes or first JSON line only."""
    read: Reader
    """Read and validate all of it; an InputError (file, line, field) on the first problem."""
    looked_for: str | None = None
    """What the sniff looks for, as the message for an unrecognised file says it."""
    folders: bool = False
    """It reads folders too (an API-suite run)."""
