"""A run's results written in batches, at most a fraction of a second after they arrive."""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType

from w2c_tui.db.runs import RunStore
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.runs import RunConfig, RunInfo, TaskResult

BATCH = 200
"""Results per transaction at most."""
FLUSH_EVERY = 0.25
"""Seconds a result waits at most before it is written (a killed worker redoes these)."""
BACKLOG = 5
"""Batches queued at most before `emit` waits for the writer."""


class ResultWriter:
    """Collects TaskResults from `emit` and writes them a batch at a time on a thread of its own.

    One transaction per task cost a round trip per statement (~10 ms a task on PostgreSQL); a
    batch costs about the same as one task, and the executor goes on while it is written. Use
    as a context manager: leaving it writes what is left. Each write calls `progress` with the
    run as stored. `emit` waits only when the writer falls behind by several batches.
    """

    def __init__(
        self,
        runs: RunStore,
        run_id: int,
        config: RunConfig,
        rater: RaterSpec | None,
        progress: Callable[[RunInfo], None] | None = None,
    ) -> None:
        self._runs = runs
        self._run_id = run_id
        self._config = config
        self._rater = rater
        self._progress = progress
        self._pending: list[TaskResult] = []
        self._changed = threading.Condition()
        self._writing = threading.Lock()
        self._stopping = False
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._loop, daemon=True, name="run-writer")

    def __enter__(self) -> ResultWriter:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
        self._thread.join()
        self._raise_failure()
        self.flush()

    def emit(self, result: TaskResult) -> None:
        """Queue one result."""
        with self._changed:
            self._raise_failure()
            self._pending.append(result)
            if len(self._pending) >= BATCH:
                self._changed.notify_all()
            while len(self._pending) >= BACKLOG * BATCH and self._failed is None:
                self._changed.wait(FLUSH_EVERY)

    def flush(self) -> None:
        """Write every queued result now."""
        with self._writing:
            with self._changed:
                batch, self._pending = self._pending, []
                self._changed.notify_all()
            if batch:
                self._runs.record_many(self._run_id, batch, self._config, self._rater)
                if self._progress is not None:
                    self._progress(self._runs.get(self._run_id))

    def _loop(self) -> None:
        while True:
            with self._changed:
                if not self._stopping and len(self._pending) < BATCH:
                    self._changed.wait(FLUSH_EVERY)
                if self._stopping:
                    return
            try:
                self.flush()
            except Exception as error:  # raised again on the run's own thread
                with self._changed:
                    self._failed = error
                    self._changed.notify_all()
                return

    def _raise_failure(self) -> None:
        if self._failed is not None:
            raise self._failed
