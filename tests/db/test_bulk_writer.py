"""The bulk item writer's parts, each on its own: the tools/answers JSON written string by
string, the page cache put back, and rows sent to the driver as they are only where nothing
needs processing (tests/db/test_item_import.py tests the whole import)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    insert,
    select,
)
from sqlalchemy.pool import NullPool

import w2c_tui.db.import_items as import_items


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_the_column_json_is_what_dumps_writes() -> None:
    """The tools/answers columns are written string by string; the text is json.dumps's."""
    odd = [
        "",
        'a "quoted" \\ back',
        "\x00\x1f\t\n",
        "\u2028\u2029",
        "Zürich 東京",
        "\ud800",
        "é" * 9,
    ]
    assert import_items._texts_json(tuple(odd), {}) == _compact(odd)
    encoded: dict[str, str] = {}
    for _ in range(2):  # the second time from `encoded`
        assert import_items._texts_json((odd[1], odd[4], odd[1]), encoded) == _compact(
            [odd[1], odd[4], odd[1]]
        )
    answers = tuple(zip(odd, reversed(odd), strict=True))
    assert import_items._answers_json(answers) == _compact([list(a) for a in answers])
    assert import_items._answers_json(()) == "[]"


@pytest.mark.sqlite_only
def test_the_page_cache_is_put_back(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'c.db'}", poolclass=NullPool)

    def cache_size(connection: Any) -> int:
        return int(connection.exec_driver_sql("PRAGMA cache_size").scalar_one())

    with engine.connect() as connection:
        before = cache_size(connection)
        with import_items._page_cache(connection, 4096):
            assert cache_size(connection) == -4096
        assert cache_size(connection) == before
        with pytest.raises(RuntimeError), import_items._page_cache(connection, 4096):
            raise RuntimeError("failed while inserting")
        assert cache_size(connection) == before
        with import_items._page_cache(connection, None):
            assert cache_size(connection) == before
    engine.dispose()


def test_rows_needing_processing_go_the_usual_way(tmp_path: Path) -> None:
    """_execute_many sends rows to the driver as they are only where the statement needs no
    parameter processing; a processed type or a column default goes through SQLAlchemy."""
    metadata = MetaData()
    table = Table(
        "t",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("name", String),
        Column("at", DateTime, default=lambda: datetime(2024, 5, 1, 12)),
    )
    engine = create_engine(f"sqlite:///{tmp_path / 't.db'}", poolclass=NullPool)
    metadata.create_all(engine)
    with engine.begin() as connection:
        import_items._execute_many(connection, insert(table), [{"name": "a"}, {"name": "b"}])
        moment = datetime(2025, 1, 2, 3, 4, 5)
        import_items._execute_many(connection, insert(table), [{"name": "c", "at": moment}])
        import_items._execute_many(connection, insert(table), [{"id": 9, "name": "d"}])
        rows = connection.execute(select(table).order_by(table.c.id)).all()
    engine.dispose()
    noon = datetime(2024, 5, 1, 12)
    assert [tuple(r) for r in rows] == [
        (1, "a", noon),
        (2, "b", noon),
        (3, "c", moment),
        (9, "d", noon),
    ]
