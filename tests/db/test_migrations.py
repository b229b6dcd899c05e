"""Migrations: the schema they build matches the tables, and upgrades keep labels."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from dbfixtures import WHEN2CALL, query, table_names
from sqlalchemy import text
from sqlmodel import SQLModel

from w2c_tui.db import tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from w2c_tui.db.engine import make_engine
from w2c_tui.db.item_search import is_search_object
from w2c_tui.db.migrate import current_revision, head_revision, upgrade
from w2c_tui.domain.labels import Label
from w2c_tui.services import open_services


def test_fresh_database_is_at_head(db_url: str) -> None:
    engine = make_engine(db_url)
    assert current_revision(engine) == head_revision()


def test_migrations_build_exactly_the_declared_tables(db_url: str) -> None:
    engine = make_engine(db_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"include_name": lambda name, *_: not is_search_object(name)}
        )
        diff = compare_metadata(context, SQLModel.metadata)
    assert diff == []


def test_upgrade_from_first_revision_keeps_labels(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url, migrate=False)
    upgrade(engine, "0001")
    assert current_revision(engine) == "0001"
    # A database as revision 0001 wrote it, with one human label, filled in by hand.
    with engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO dataset (name, kind, imported_at) "
                "VALUES ('old', 'when2call_test', '2026-01-01 00:00:00')"
            )
        )
        db.execute(
            text(
                "INSERT INTO item (dataset_id, uuid, position, kind, question, tools_json,"
                " answers_json, gold, n_tools, extra_json, content_hash) SELECT id, 'u-1',"
                " 0, 'test', 'Weather in Bern?', '[]', '[]', 'cannot_answer', 0, '{}', 'h'"
                " FROM dataset WHERE name = 'old'"
            )
        )
        db.execute(
            text(
                "INSERT INTO rater (key, kind, name, config_json, created_at) VALUES "
                "('human:ann:x', 'human', 'ann', '{}', '2026-01-01 00:00:00')"
            )
        )
        db.execute(
            text(
                "INSERT INTO verdict (rater_id, item_id, label, status, scores_json, "
                "is_current, created_at) SELECT rater.id, item.id, 'cannot_answer', 'ok', '{}',"
                " TRUE, '2026-01-02 10:00:00' FROM rater, item"
            )
        )
    engine.dispose()
    services = open_services(empty_db_url)  # opening upgrades
    try:
        assert services.db_revision() == (head_revision(), head_revision())
        records = services.labels.export()
        assert [(r.annotator, r.item_uuid, r.label) for r in records] == [
            ("ann", "u-1", Label.CANNOT_ANSWER)
        ]
        assert services.datasets.all()[0].n_human_labels == 1
        item = services.review.window("old", *_qa())[0]
        services.review.label_item("bob", item.id, Label.REQUEST_FOR_INFO)  # new rows insert
    finally:
        services.close()
    assert {"import_log", "assignment"} <= set(table_names(empty_db_url))
    assert query(empty_db_url, f"SELECT COUNT(*) FROM label WHERE {WHEN2CALL}") == [(2,)]


def _qa() -> tuple[object, ...]:
    from w2c_tui.domain.review import ItemFilter, ReviewMode

    return ItemFilter(), ReviewMode.ITEM_QA, None, 0, 10


@pytest.mark.sqlite_only
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
