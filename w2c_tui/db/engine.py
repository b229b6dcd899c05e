"""Engine creation with SQLite set up on purpose, and automatic migration on open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.engine import make_url
from sqlmodel import create_engine

from w2c_tui.db.migrate import upgrade


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets the TUI read while a run writes; FULL makes every committed label survive a
    # power cut (measured cheap: ~1 ms per commit); the busy timeout rides out a run's writes.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()
    # SQLite's own lower() folds ASCII only; PostgreSQL's folds every letter. The same search
    # finds the same items on both (ILIKE / icontains compile to lower() on SQLite).
    dbapi_connection.create_function("lower", 1, _lower, deterministic=True)


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def display_url(url: str) -> str:
    """`url` fit to show or log: any password replaced by ***."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: show no part of it that could be a secret
        return "(a database URL that cannot be parsed)"


def make_engine(url: str, *, migrate: bool = True) -> Engine:
    """An engine for `url` (any SQLAlchemy URL); the schema is brought up to date first."""
    parsed = make_url(url)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        kwargs["connect_args"] = {"check_same_thread": False}
    engine = create_engine(url, **kwargs)
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    if migrate:
        upgrade(engine)
    return engine
