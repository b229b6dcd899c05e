"""A label survives SIGKILL of the TUI right after the key that recorded it."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from w2c_tui.domain.labels import Label
from w2c_tui.services import Services, open_services

ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


def read_until(fd: int, needle: bytes, timeout: float, seen: bytearray) -> bool:
    """Read the terminal's output until `needle` appears in the text (escapes removed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        seen.extend(chunk)
        if needle in ANSI.sub(b"", bytes(seen)):
            return True
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_sigkill_right_after_a_label_key_loses_nothing(
    demo: Services, db_url: str, tmp_path: Path
) -> None:
    demo.close()
    pid, fd = pty.fork()
    if pid == 0:  # the child becomes the TUI, in a 160x45 terminal
        os.environ.update(
            {
                "TERM": "xterm-256color",
                "COLUMNS": "160",
                "LINES": "45",
                "W2C_CONFIG": str(tmp_path / "cfg.toml"),
            }
        )
        os.execv(
            sys.executable,
            [sys.executable, "-m", "w2c_tui", "--db", db_url, "--annotator", "alice"],
        )
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 160, 0, 0))
        seen = bytearray()
        assert read_until(fd, b"0/60 labelled", 60, seen), ANSI.sub(b"", bytes(seen))[-2000:]
        seen.clear()
        os.write(fd, b"2")
        # the screen has moved on: the header counts the label
        assert read_until(fd, b"1/60 labelled", 30, seen), ANSI.sub(b"", bytes(seen))[-2000:]
        os.kill(pid, signal.SIGKILL)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
    after = open_services(db_url)
    try:
        records = after.labels.export()
        assert [(r.annotator, r.label) for r in records] == [("alice", Label.TOOL_CALL)]
    finally:
        after.close()
