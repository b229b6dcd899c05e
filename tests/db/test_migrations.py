"""Migrations: the schema they build matches the tables, and upgrades keep labels."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from w2c_tui.db import tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from w2c_tui.db.engine import make_engine
from w2c_tui.db.migrate import current_revision, head_revision, upgrade
from w2c_tui.domain.labels import Label
from w2c_tui.services import open_services


def test_fresh_database_is_at_head(db_url: str) -> None:
    engine = make_engine(db_url)
    assert current_revision(engine) == head_revision()


def test_migrations_build_exactly_the_declared_tables(db_url: str) -> None:
    engine = make_engine(db_url)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    assert diff == []


def test_upgrade_from_first_revision_keeps_labels(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    engine = make_engine(url, migrate=False)
    upgrade(engine, "0001")
    assert current_revision(engine) == "0001"
    engine.dispose()
    # A database as revision 0001 wrote it, with one human label, filled in by hand.
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO dataset (id, name, kind, imported_at) "
            "VALUES (1, 'old', 'when2call_test', '2026-01-01 00:00:00')"
        )
        db.execute(
            "INSERT INTO item (id, dataset_id, uuid, position, kind, question, tools_json,"
            " answers_json, gold, n_tools, extra_json, content_hash) VALUES (1, 1, 'u-1',"
            " 0, 'test', 'Weather in Bern?', '[]', '[]', 'cannot_answer', 0, '{}', 'h')"
        )
        db.execute(
            "INSERT INTO rater (id, key, kind, name, config_json, created_at) VALUES "
            "(1, 'human:ann:x', 'human', 'ann', '{}', '2026-01-01 00:00:00')"
        )
        db.execute(
            "INSERT INTO verdict (rater_id, item_id, label, status, scores_json, "
            "is_current, created_at) VALUES (1, 1, 'cannot_answer', 'ok', '{}', 1, "
            "'2026-01-02 10:00:00')"
        )
    services = open_services(url)  # opening upgrades
    try:
        assert services.db_revision() == (head_revision(), head_revision())
        records = services.labels.export()
        assert [(r.annotator, r.item_uuid, r.label) for r in records] == [
            ("ann", "u-1", Label.CANNOT_ANSWER)
        ]
        assert services.datasets.all()[0].n_human_labels == 1
    finally:
        services.close()
    with sqlite3.connect(path) as db:
        tables_now = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert {"import_log", "assignment"} <= tables_now


def test_sqlite_is_set_up_for_durability(db_url: str) -> None:
    engine = make_engine(db_url)
    with engine.connect() as connection:
        driver = connection.connection.dbapi_connection
        assert driver is not None
        cursor = driver.cursor()
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert cursor.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert cursor.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
