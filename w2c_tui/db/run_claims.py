"""Who may touch a run: conditional updates, so that two resumes (or two workers) racing for
the same run end with exactly one of them holding it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Engine, delete, func, update
from sqlmodel import Session, col

from w2c_tui.db.tables import RunResultRow, RunRow
from w2c_tui.db.writes import write_session
from w2c_tui.domain.runs import RunStatus

WRITE_WAIT_MS = 30_000
"""How long a worker's claim waits for the write lock (the same wait as its result batches)."""


class RunClaims:
    """The claiming half of RunStore."""

    engine: Engine

    def claim_resume(
        self, run_id: int, statuses: Sequence[RunStatus], *, retry_errors: bool
    ) -> int | None:
        """Atomically set a run in one of `statuses` back to pending (no worker yet); with
        `retry_errors`, forget its failed tasks so they run again. The number of failed tasks
        forgotten, or None when the run was not in one of `statuses` (someone else got it)."""
        with Session(self.engine) as session, session.begin():
            claimed = session.execute(
                update(RunRow)
                .where(
                    col(RunRow.id) == run_id,
                    col(RunRow.status).in_([s.value for s in statuses]),
                )
                .values(
                    status=RunStatus.PENDING.value,
                    pid=None,
                    worker_started=None,
                    error=None,
                    finished_at=None,
                )
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return None
            if not retry_errors:
                return 0
            forgotten = session.execute(
                delete(RunResultRow).where(
                    col(RunResultRow.run_id) == run_id, col(RunResultRow.status) == "error"
                )
            ).rowcount  # type: ignore[attr-defined]
            session.execute(
                update(RunRow)
                .where(col(RunRow.id) == run_id)
                .values(n_error=RunRow.n_error - forgotten)
            )
            return int(forgotten)

    def claim_start(
        self, run_id: int, *, pid: int, started: float | None, host: str, now: datetime
    ) -> bool:
        """A worker takes a pending run: True for exactly one of several trying at once."""
        with write_session(self.engine, busy_ms=WRITE_WAIT_MS) as session, session.begin():
            claimed = session.execute(
                update(RunRow)
                .where(col(RunRow.id) == run_id, col(RunRow.status) == RunStatus.PENDING.value)
                .values(
                    status=RunStatus.RUNNING.value,
                    pid=pid,
                    worker_started=started,
                    host=host,
                    heartbeat_at=now,
                    started_at=func.coalesce(RunRow.started_at, now),  # a resume keeps the first
                    error=None,
                    finished_at=None,
                )
            )
            return bool(claimed.rowcount == 1)  # type: ignore[attr-defined]

    def mark_interrupted(
        self, run_id: int, seen: RunStatus, pid: int | None, message: str, now: datetime
    ) -> bool:
        """Interrupted, if the run is still as it was seen (same status, same worker)."""
        pid_is = col(RunRow.pid).is_(None) if pid is None else col(RunRow.pid) == pid
        with write_session(self.engine, busy_ms=WRITE_WAIT_MS) as session, session.begin():
            changed = session.execute(
                update(RunRow)
                .where(col(RunRow.id) == run_id, col(RunRow.status) == seen.value, pid_is)
                .values(status=RunStatus.INTERRUPTED.value, error=message, finished_at=now)
            )
            return bool(changed.rowcount == 1)  # type: ignore[attr-defined]
