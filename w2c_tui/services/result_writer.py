"""The thread that stores a run's results: the executor (an event loop with 32 requests in
flight, or the local scoring loop) only queues each result; this thread writes whatever has
arrived in one transaction, so a commit never stalls the requests."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence

from w2c_tui.domain.runs import TaskResult

MAX_BATCH = 256
"""Most results one transaction stores."""
LINGER_S = 0.25
"""How long a batch keeps gathering after its first result: every transaction costs the same
CPU whatever its size, and on a busy machine that CPU is taken from the requests in flight."""

Write = Callable[[Sequence[TaskResult]], None]


class WriterFailed(RuntimeError):
    """The writer thread could not store results; the run stops (its checkpoint is the store)."""


class ResultWriter:
    """Queues results and stores them in batches from its own thread (see the module docstring)."""

    _STOP = object()

    def __init__(
        self, write: Write, *, max_batch: int = MAX_BATCH, linger_s: float = LINGER_S
    ) -> None:
        self._write = write
        self._max_batch = max_batch
        self._linger_s = linger_s
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self.batches = 0
        self.written = 0
        self._thread = threading.Thread(target=self._loop, name="w2c-result-writer", daemon=True)
        self._thread.start()

    def put(self, result: TaskResult) -> None:
        """Queue one result (never blocks); WriterFailed once the writer has failed."""
        if self._error is not None:
            raise WriterFailed(f"results cannot be stored: {self._error}") from self._error
        self._queue.put(result)

    def close(self) -> None:
        """Store everything queued, stop the thread; WriterFailed if storing failed."""
        self._queue.put(self._STOP)
        self._thread.join()
        if self._error is not None:
            raise WriterFailed(f"results cannot be stored: {self._error}") from self._error

    def _loop(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is self._STOP:
                return
            batch = [first]
            until = time.monotonic() + self._linger_s
            while len(batch) < self._max_batch:
                try:
                    item = self._queue.get(timeout=max(0.0, until - time.monotonic()))
                except queue.Empty:
                    break
                if item is self._STOP:
                    stopping = True
                    break
                batch.append(item)
            results = [r for r in batch if isinstance(r, TaskResult)]
            try:
                self._write(results)
            except BaseException as error:
                self._error = error
                return
            self.batches += 1
            self.written += len(results)
