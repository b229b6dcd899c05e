"""Following a growing text file (a run's log) from where the last read stopped."""

from __future__ import annotations

import codecs
from pathlib import Path

CHUNK = 1 << 20


class LogTail:
    """Reads what was appended to `path` since the last `read()` (decoding UTF-8 across chunk
    boundaries; a file that shrank is read again from the start)."""

    def __init__(self, path: Path, *, last_bytes: int | None = None) -> None:
        self.path = path
        self._offset = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        if last_bytes is not None and path.exists():
            self._offset = max(0, path.stat().st_size - last_bytes)

    def read(self) -> str:
        """The text appended since the last call ("" when nothing new or no file yet)."""
        try:
            size = self.path.stat().st_size
        except OSError:
            return ""
        if size < self._offset:
            self._offset = 0
            self._decoder.reset()
        parts: list[str] = []
        with self.path.open("rb") as handle:
            handle.seek(self._offset)
            while True:
                chunk = handle.read(CHUNK)
                if not chunk:
                    break
                self._offset += len(chunk)
                parts.append(self._decoder.decode(chunk))
        return "".join(parts)
