"""Alembic migrations, driven from code so that opening a database upgrades it.

Upgrades take a lock first, so that processes opening an old database at the same time upgrade
it once: PostgreSQL's transaction-level advisory lock; SQLite's write lock (BEGIN IMMEDIATE on a
connection held across the upgrade). Under the lock the revision is read again, and every
migration runs in that one transaction (both databases have transactional DDL), so a failed
upgrade leaves the database as it was.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.pool import NullPool

from w2c_tui.domain.errors import W2CError

MIGRATIONS = Path(__file__).parent / "migrations"
LOCK_KEY = 0x7732635F6D6967  # "w2c_mig": the advisory lock all w2c processes agree on
SQLITE_LOCK_WAIT_MS = 300_000
"""How long a process waits for another's upgrade of a SQLite file (PostgreSQL waits as long as
the lock holder needs)."""


def alembic_config(connection: Connection) -> Config:
    """A Config pointing at our migration scripts and running on `connection`."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None for an empty database)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    """The newest revision this version of w2c-tui knows."""
    script = ScriptDirectory(str(MIGRATIONS))
    head = script.get_current_head()
    assert head is not None
    return head


class DatabaseTooNew(W2CError):
    """The database was written by a newer w2c-tui: this one does not know its schema."""


def known_revisions() -> set[str]:
    """Every revision this version of w2c-tui has a migration for."""
    return {script.revision for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}


def check_known(engine: Engine) -> str | None:
    """The database's revision; DatabaseTooNew when this version does not know it."""
    current = current_revision(engine)
    if current is not None and current not in known_revisions():
        raise DatabaseTooNew(
            f"the database is at schema revision {current}, which is newer than this version "
            f"of w2c-tui knows (its newest is {head_revision()}): it was written by a newer "
            "w2c-tui; upgrade w2c-tui (pip install -U w2c-tui) to open it. Nothing was changed."
        )
    return current


def upgrade(engine: Engine, revision: str = "head") -> bool:
    """Apply every migration up to `revision`; False when there was nothing to do (a no-op
    when already there, also when another process upgraded it while this one waited).
    DatabaseTooNew for a database a newer w2c-tui wrote."""
    current = check_known(engine)
    target = head_revision() if revision == "head" else revision
    if current == target:
        return False
    with _locked(engine) as connection:
        if MigrationContext.configure(connection).get_current_revision() == target:
            return False
        with warnings.catch_warnings():
            # SQLite cannot reflect expression indexes; the migrations that rebuild a table
            # drop and recreate theirs, so SQLAlchemy's note about skipping them is noise
            warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression")
            command.upgrade(alembic_config(connection), revision)
        return True


@contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that holds the migration lock; committed on success."""
    backend = engine.dialect.name
    if backend == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            yield connection
        return
    database = engine.url.database
    if backend != "sqlite" or not database or database == ":memory:":
        with engine.begin() as connection:  # one process only, or a backend we do not lock
            yield connection
        return
    locker = _sqlite_locking_engine(engine)
    try:
        with locker.begin() as connection:
            yield connection
    finally:
        locker.dispose()


def _sqlite_locking_engine(engine: Engine) -> Engine:
    """An engine on the same file whose transactions begin with BEGIN IMMEDIATE (the write
    lock, taken at once) instead of pysqlite's deferred, implicit BEGIN."""
    locker = create_engine(engine.url, poolclass=NullPool)

    @event.listens_for(locker, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we say when transactions begin
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_LOCK_WAIT_MS}")
        cursor.close()

    @event.listens_for(locker, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return locker
