"""Test databases on PostgreSQL: a template migrated once per session, a fresh copy per test."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import pytest
from sqlalchemy import Engine, create_engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from w2c_tui.db.engine import make_engine

PG_ENV = "W2C_TEST_PG_URL"
WHEN2CALL = "question = 'behaviour' AND schema_name IN ('when2call-item-qa', 'when2call-behaviour')"
"""SQL: the rows of `label` that are When2Call labels (w2c_tui.db.when2call_labels)."""
REQUIRE_ENV = "W2C_TEST_REQUIRE_ALL"


def unavailable(what: str, why: str) -> NoReturn:
    """Skip with the reason; fail instead where the run must test everything (CI)."""
    if os.environ.get(REQUIRE_ENV):
        pytest.fail(f"{what} is required here ({REQUIRE_ENV} is set) but {why}")
    pytest.skip(f"{what} unavailable: {why}", allow_module_level=True)


def require_module(module: str, extra: str) -> None:
    """Skip (fail under CI) unless `module`, brought by the `extra`, imports."""
    try:
        __import__(module)
    except ImportError as error:
        unavailable(f"the {extra} extra", f"{module} does not import ({error})")


class PgServer:
    """A PostgreSQL server the tests may create and drop databases on."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.admin: Engine = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        self.prefix = f"w2c_test_{os.getpid()}"
        self._counter = itertools.count()
        self._template: str | None = None
        self._created: set[str] = set()

    def url_for(self, database: str) -> str:
        """The URL of one database on this server."""
        return self.url.set(database=database).render_as_string(hide_password=False)

    def _execute(self, statement: str) -> None:
        with self.admin.connect() as connection:
            connection.execute(text(statement))

    def _create(self, name: str, template: str) -> str:
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        self._created.add(name)
        return name

    def template(self) -> str:
        """A database migrated to head, created on first use (CREATE DATABASE copies it)."""
        if self._template is None:
            name = self._create(f"{self.prefix}_template", "template0")
            make_engine(self.url_for(name)).dispose()
            self._template = name
        return self._template

    def fresh(self, *, migrated: bool = True) -> str:
        """The URL of a new database: a copy of the migrated template, or empty."""
        source = self.template() if migrated else "template0"
        return self.url_for(self._create(f"{self.prefix}_{next(self._counter)}", source))

    def drop(self, url: str) -> None:
        """Drop a database made by fresh(), closing whatever still connects to it."""
        name = make_url(url).database
        assert name is not None and name in self._created
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._created.discard(name)

    def close(self) -> None:
        """Drop every database this session made."""
        for name in list(self._created):
            self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._created.clear()
        self.admin.dispose()


def query(url: str, sql: str, **params: object) -> list[tuple[object, ...]]:
    """Rows of one portable SQL statement, read through SQLAlchemy on a separate connection."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql), params)]
    finally:
        engine.dispose()


def table_names(url: str) -> list[str]:
    """The store's tables (not Alembic's bookkeeping)."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        return sorted(n for n in inspect(engine).get_table_names() if n != "alembic_version")
    finally:
        engine.dispose()


def row_counts(url: str) -> dict[str, int]:
    """Rows per table."""
    return {
        name: int(query(url, f"SELECT COUNT(*) FROM {name}")[0][0]) for name in table_names(url)
    }


def everything_stored(url: str) -> str:
    """Every value of every row of every table, as one text (to search it for secrets)."""
    parts = []
    for name in table_names(url):
        for row in query(url, f"SELECT * FROM {name}"):
            parts.extend("" if value is None else str(value) for value in row)
    return "\n".join(parts)


@contextmanager
def write_lock_held(url: str) -> Iterator[None]:
    """Another connection holds the write lock of the store (reads still go through):
    SQLite's reserved lock (BEGIN IMMEDIATE), PostgreSQL's EXCLUSIVE lock on the tables labels
    are written to (label)."""
    engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            if engine.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                connection.exec_driver_sql("BEGIN")
                connection.exec_driver_sql("LOCK TABLE label IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                connection.exec_driver_sql("ROLLBACK")
    finally:
        engine.dispose()


def read_only_url(url: str) -> str:
    """The same database opened read-only: SQLite's mode=ro, PostgreSQL read-only transactions."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"sqlite:///file:{parsed.database}?mode=ro&uri=true"
    options = "-c default_transaction_read_only=on"
    return parsed.update_query_dict({"options": options}).render_as_string(hide_password=False)
