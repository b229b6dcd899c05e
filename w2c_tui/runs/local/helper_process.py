"""One helper process of a log-prob MCQ run (`helpers.py` shares the work out): the process,
the list both ends take work from, and the thread that feeds a helper and reads its replies."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from w2c_tui.domain.runs import Task

CHUNK = 2
"""Items sent to a helper at a time; it holds one to three, so the ends meet closely."""

Rendered = tuple[Task, str, list[str]]
"""A task with its rendered prompt and choices."""


class SharedWork:
    """The rendered items in sorted order, taken from the front (this process) and from the
    back (helpers), each item once."""

    def __init__(self, items: Sequence[Rendered]) -> None:
        self.items = list(items)
        self.low, self.high = 0, len(self.items)
        self._lock = threading.Lock()

    def front(self, n: int) -> list[int]:
        """The next `n` keys (indexes) from the front, ascending."""
        with self._lock:
            keys = list(range(self.low, min(self.low + n, self.high)))
            self.low += len(keys)
        return keys

    def back(self, n: int) -> list[int]:
        """The next `n` keys from the back, descending (a helper's prefix reuse runs down)."""
        with self._lock:
            keys = list(range(self.high - 1, max(self.high - n, self.low) - 1, -1))
            self.high -= len(keys)
        return keys


@dataclass(frozen=True)
class Reply:
    """A helper's result for one key, or (key None) the news that the helper is gone."""

    helper: Helper
    key: int | None = None
    result: dict[str, Any] | None = None


class Helper:
    """One helper process (`python -m w2c_tui.runs.local.helper_main`) and the thread that
    reads its replies and feeds it work."""

    def __init__(self, number: int, settings: dict[str, Any]) -> None:
        self.number = number
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        env = {**os.environ, "OMP_NUM_THREADS": "1", "OMP_WAIT_POLICY": "PASSIVE"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "w2c_tui.runs.local.helper_main"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=env,
            text=True,
            encoding="utf-8",
        )
        self.pending: dict[int, Rendered] = {}
        """Items sent and not answered (the reader thread's until the helper is gone)."""
        self.failure: str | None = None
        self.scored = 0
        self.stopped = False
        """Stopped from here (not needed any more, or the run ended)."""
        self._ended = False
        self._send(settings)

    @property
    def pid(self) -> int:
        return self.process.pid

    def _send(self, message: dict[str, Any]) -> bool:
        stdin = self.process.stdin
        if stdin is None:
            return False
        try:
            stdin.write(json.dumps(message) + "\n")
            stdin.flush()
        except (OSError, ValueError):  # gone (a broken pipe) or closed
            return False
        return True

    def serve(self, work: SharedWork, replies: queue.Queue[Reply], threads: int) -> None:
        """Read replies and feed work in a thread until the helper ends."""
        threading.Thread(
            target=self._read,
            args=(work, replies, threads),
            daemon=True,
            name=f"w2c-helper-{self.number}",
        ).start()

    def _feed(self, work: SharedWork) -> None:
        keys = work.back(CHUNK)
        if not keys:
            if not self.pending and not self._ended:
                self._ended = self._send({"end": True})
            return
        chunk = {key: work.items[key] for key in keys}
        self.pending.update(chunk)
        items = [
            [key, [name for name, _ in task.answers], prompt, choices]
            for key, (task, prompt, choices) in chunk.items()
        ]
        self._send({"items": items})

    def _read(self, work: SharedWork, replies: queue.Queue[Reply], threads: int) -> None:
        stdout = self.process.stdout
        try:
            assert stdout is not None
            for line in stdout:
                message = json.loads(line)
                if "ready" in message:
                    self._send({"threads": threads})
                    self._feed(work)
                elif "failed" in message:
                    self.failure = str(message["failed"])
                elif "key" in message:
                    key = int(message["key"])
                    self.pending.pop(key, None)
                    self.scored += 1
                    replies.put(Reply(self, key, message["result"]))
                    if len(self.pending) <= 1:
                        self._feed(work)
        except (OSError, ValueError, TypeError, KeyError) as exc:
            self.failure = f"unreadable reply: {type(exc).__name__}: {exc}"
        finally:
            replies.put(Reply(self))

    def why_gone(self) -> str:
        """What ended the helper early: its own message, else the tail of its stderr."""
        if self.failure:
            return self.failure
        code = self.process.poll()
        with contextlib.suppress(OSError):
            self.stderr.seek(0)
            tail = self.stderr.read().decode("utf-8", "replace").strip().splitlines()[-3:]
            if tail:
                return f"exit code {code}: " + " | ".join(tail)
        return f"exit code {code}"

    def stop(self) -> None:
        """Ask the process to end now (it is not needed any more)."""
        if self.process.poll() is None:
            self.stopped = True
            self.process.terminate()

    @property
    def failed(self) -> bool:
        """It ended by itself other than through `end`: a message, a crash or a kill."""
        code = self.process.poll()
        return self.failure is not None or (not self.stopped and code not in (None, 0))

    def close(self) -> None:
        """Stop the process (if it still runs) and reap it."""
        if self.process.poll() is None:
            self.stopped = True
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self.stderr.close()
