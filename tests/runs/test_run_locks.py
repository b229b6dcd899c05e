"""A run's heartbeat and writer threads ride out `database is locked`: another process holds
the SQLite write lock (and commits) while the run beats and stores results; the run finishes."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy.engine import make_url
from test_run_service import FakeExecutor, config

from w2c_tui.domain.runs import RunStatus, Task
from w2c_tui.runs import backends
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.services import Services, run_worker

HOLD_S = 1.5
"""How long the other process holds the write lock: 30 heartbeats, far below the run's wait."""


class LockedMidway(FakeExecutor):
    """Emits the first half, lets another process take the write lock, emits the rest while
    it holds it, then waits for its release before finishing."""

    def __init__(self, cfg: Any, locked: threading.Event, released: threading.Event) -> None:
        super().__init__(cfg)
        self.locked = locked
        self.released = released

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        half = len(tasks) // 2
        super().run(tasks[:half], emit, should_stop)
        self.locked.wait(30)
        super().run(tasks[half:], emit, should_stop)  # queued while the lock is held
        self.released.wait(30)


@pytest.mark.sqlite_only
def test_a_held_write_lock_neither_kills_the_heartbeat_nor_fails_the_run(
    demo: Services, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_worker, "HEARTBEAT_EVERY", 0.05)
    died: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(args.exc_value))
    locked, released = threading.Event(), threading.Event()
    started = threading.Event()

    def make(cfg: Any) -> LockedMidway:
        started.set()
        return LockedMidway(cfg, locked, released)

    monkeypatch.setattr(backends, "make_executor", make)
    path = make_url(db_url).database
    assert path is not None

    def other_process() -> None:
        """Takes the write lock, writes, holds it, commits: every reader's snapshot is stale
        after it, so a deferred read-then-write transaction gets `database is locked`."""
        started.wait(30)
        connection = sqlite3.connect(path, isolation_level=None, timeout=30)
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE dataset SET name = name")
            locked.set()
            released.wait(HOLD_S)  # the lock is the point of the test: hold it this long
            connection.execute("COMMIT")
        finally:
            connection.close()
            released.set()

    holder = threading.Thread(target=other_process, name="other-process")
    holder.start()
    run_id = demo.runs.create(config(limit=12))
    info = demo.runs.execute(run_id)
    holder.join()
    assert died == [], died
    assert (info.status, info.n_done, info.n_error, info.n_total) == (RunStatus.DONE, 12, 0, 12)
    assert len(demo.runs.results(run_id)) == 12


def test_patiently_retries_a_busy_database_and_nothing_else() -> None:
    """The writer's batches go through `patiently`: a transient lock error is retried."""
    from sqlalchemy.exc import OperationalError

    from w2c_tui.db.writes import patiently

    calls = [0]

    def flaky() -> int:
        calls[0] += 1
        if calls[0] < 3:
            raise OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))
        return 7

    assert patiently(flaky, deadline_s=5) == 7 and calls[0] == 3
    with pytest.raises(OperationalError, match="no such table"):
        patiently(
            lambda: (_ for _ in ()).throw(
                OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: x"))
            ),
            deadline_s=5,
        )
