"""Write transactions that wait their turn, and retries for writes that meet a busy database.

Every human label goes through `retry_write`: a race on the unique "one current verdict"
index, a SQLite lock held by another process, a PostgreSQL lock timeout or a serialization
failure is retried with a short backoff until a deadline; what cannot succeed by retrying
(a read-only database, a missing disk) is reported at once. Either way the caller gets a
`WriteError` it can show, never a crash.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Engine, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Session

from w2c_tui.db.engine import BUSY_MS, IMMEDIATE, READ_ONLY
from w2c_tui.domain.errors import WriteError

T = TypeVar("T")

ATTEMPT_MS = 400
"""How long one attempt waits for a lock before the loop looks at its deadline again."""
TRANSIENT = (
    "database is locked",
    "database table is locked",
    "database is busy",
    "lock timeout",
    "lock_timeout",
    "canceling statement due to lock timeout",
    "deadlock detected",
    "could not serialize access",
    "could not obtain lock",
)


class Raced(Exception):
    """Another writer changed the row between our read and our update: try again."""


def retire(session: Session, table: Any, row_id: int | None) -> None:
    """Make the current row `row_id` of `table` history (`is_current` false), only if it is
    still current: Raced when another writer retired it first."""
    retired = session.execute(
        update(table).where(table.id == row_id, table.is_current.is_(True)).values(is_current=False)
    )
    if retired.rowcount != 1:  # type: ignore[attr-defined]
        raise Raced


def write_session(engine: Engine, *, busy_ms: int = ATTEMPT_MS) -> Session:
    """A session whose transactions take the write lock first and wait at most `busy_ms`."""
    return Session(engine.execution_options(**{IMMEDIATE: True, BUSY_MS: busy_ms}))


def _transient(error: DBAPIError) -> bool:
    text = str(error.orig).lower()
    return any(marker in text for marker in TRANSIENT)


def _read_only(error: DBAPIError) -> bool:
    text = str(error.orig).lower()
    return any(marker in text for marker in READ_ONLY)


def _reason(error: BaseException) -> str:
    orig = getattr(error, "orig", None) or error
    text = " ".join(str(orig).split())
    if "readonly" in text or "read-only" in text or "read only" in text:
        return f"the database is read-only ({text})"
    return text


def retry_write(fn: Callable[[], T], *, deadline_s: float = 2.0) -> T:
    """Run `fn` (one write transaction) until it succeeds or `deadline_s` has passed."""
    start = time.monotonic()
    delay = 0.005
    while True:
        try:
            return fn()
        except (IntegrityError, Raced) as error:
            # a concurrent writer made its row current first: re-read and supersede it
            if time.monotonic() - start > deadline_s:
                raise WriteError(
                    f"kept colliding with another writer: {_reason(error)}", retryable=True
                ) from error
        except OperationalError as error:
            if not _transient(error):
                # a read-only database may be writable at the next try (a fresh connection,
                # db/engine.py); other failures (no such table, a full disk) are not retried
                raise WriteError(_reason(error), retryable=_read_only(error)) from error
            if time.monotonic() - start > deadline_s:
                raise WriteError(
                    f"the database is busy: another process has held its write lock for over "
                    f"{deadline_s:g} s ({_reason(error)})",
                    retryable=True,
                ) from error
        except DBAPIError as error:
            raise WriteError(_reason(error), retryable=_read_only(error)) from error
        time.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 2, 0.2)


def patiently(fn: Callable[[], T], *, deadline_s: float) -> T:
    """Run `fn` again while the database is busy (another writer holds its lock), with a
    backoff, until `deadline_s` has passed; any other error reaches the caller at once.

    A run's heartbeat, counters and status go through here: a lock held shorter than the
    run's wait never fails the run."""
    start = time.monotonic()
    delay = 0.01
    while True:
        try:
            return fn()
        except OperationalError as error:
            if not _transient(error) or time.monotonic() - start > deadline_s:
                raise
        time.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 2, 0.5)
