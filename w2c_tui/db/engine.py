"""Engine creation with SQLite set up on purpose, and automatic migration on open.

SQLite transactions are begun by us, not by the driver (its implicit BEGIN is switched off):
a read begins a plain deferred transaction, a write session (`db.writes.write_session`) begins
with `BEGIN IMMEDIATE`, taking the write lock before it reads. A deferred transaction that
reads and then writes fails at once with "database is locked" when another process committed
in between (the busy handler is not even asked); taking the lock first makes it wait its turn.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine import URL, ExceptionContext, make_url
from sqlmodel import create_engine

from w2c_tui.db.migrate import upgrade

BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite statement waits for another process's lock before giving up."""
IMMEDIATE = "w2c_immediate"
"""Execution option: begin the transaction with the write lock (SQLite)."""
BUSY_MS = "w2c_busy_ms"
"""Execution option: how long this transaction waits for a lock, in milliseconds."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets the TUI read while a run writes; FULL makes every committed label survive a
    # power cut (measured cheap: ~1 ms per commit); the busy timeout rides out a run's writes.
    dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (see _sqlite_begin)
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    _switch_to_wal(cursor)
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()
    # SQLite's own lower() folds ASCII only; PostgreSQL's folds every letter. The same search
    # finds the same items on both (ILIKE / icontains compile to lower() on SQLite).
    dbapi_connection.create_function("lower", 1, _lower, deterministic=True)


WAL_RETRY_S = 0.05


def _switch_to_wal(cursor: Any) -> None:
    """PRAGMA journal_mode=WAL, waiting up to BUSY_TIMEOUT_MS for the lock it needs. Switching
    a file that is not in WAL yet (a new database) takes an exclusive lock, and SQLite fails
    it at once, without asking the busy handler, while another process holds the file's
    write lock: the other process's first migration of that new file, say (two processes
    opening a new database at once: tests/db/test_migration_lock.py)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
            time.sleep(WAL_RETRY_S)


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def as_database_url(text: str) -> str:
    """`text` as a SQLAlchemy URL: a URL as it is, a plain file path (`--db annotations/x.db`,
    `~/w2c.db`) as the SQLite URL of that file, escaped so that `#`, `?` or `%` in its name
    stay part of the name."""
    if "://" in text or text.startswith("sqlite:"):
        return text
    path = Path(text).expanduser().absolute()
    return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)


def display_url(url: str) -> str:
    """`url` fit to show or log: any password replaced by ***."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: show no part of it that could be a secret
        return "(a database URL that cannot be parsed)"


def _sqlite_begin(connection: Connection) -> None:
    options = connection.get_execution_options()
    busy = int(options.get(BUSY_MS, BUSY_TIMEOUT_MS))
    connection.exec_driver_sql(f"PRAGMA busy_timeout={busy}")
    connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get(IMMEDIATE) else "BEGIN")


READ_ONLY = ("readonly database", "read-only transaction", "read only transaction")
"""What a database says when it refused a write because it is read-only (SQLite, PostgreSQL)."""


def _fresh_after_read_only(context: ExceptionContext) -> None:
    """A write refused as read-only drops every pooled connection, so the next try opens a
    fresh one: SQLite decides read-only when it opens the file (a file made writable again, a
    lock released, a remount, is seen only by a new connection), and a PostgreSQL session keeps
    the read-only default it started with. The annotator's retry then succeeds, no restart."""
    text = str(context.original_exception).lower()
    if any(marker in text for marker in READ_ONLY):
        context.is_disconnect = True


def _postgresql_begin(connection: Connection) -> None:
    busy = connection.get_execution_options().get(BUSY_MS)
    if busy is not None:
        connection.exec_driver_sql(f"SET LOCAL lock_timeout = {int(busy)}")


def make_engine(url: str, *, migrate: bool = True) -> Engine:
    """An engine for `url` (any SQLAlchemy URL); the schema is brought up to date first."""
    parsed = make_url(url)
    kwargs: dict[str, Any] = {}
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        database = parsed.database
        uri = parsed.query.get("uri") == "true" or (database or "").startswith("file:")
        if database and database != ":memory:" and not uri:
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        kwargs["connect_args"] = {"check_same_thread": False}
    engine = create_engine(url, **kwargs)
    if backend == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
    elif backend == "postgresql":
        event.listen(engine, "begin", _postgresql_begin)
    event.listen(engine, "handle_error", _fresh_after_read_only)
    if migrate:
        upgrade(engine)
    return engine
