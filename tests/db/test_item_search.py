"""Item search: the index answers exactly what a case-insensitive substring scan would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dbfixtures import query, unavailable
from sqlalchemy import text

from w2c_tui.db.engine import make_engine
from w2c_tui.db.item_search import INDEXED_CHARS, has_search_index, trigram_supported
from w2c_tui.db.migrate import upgrade
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services, open_services

QA = ReviewMode.ITEM_QA
QUESTIONS = (
    "Weather in ZÜRICH tomorrow?",
    "Is item 5_ really 50% off?",
    "Plain 52 text, nothing odd",
    'He said "book it" AND left',
    "Find flights NEAR Kraków OR Łódź*",
    "東京の天気を教えてください",
    "column:value ^start (group) -minus",
    "tab\there and  two spaces",
)
SEARCHES = (
    "zürich", "ZÜR", "rich tom", "5_", "_", "%", "50%", "5_ r", '"book it"', '"', "and",
    "NEAR", "łódź*", "Ó", "東京", "天気を", "column:v", "^st", "(group)", "-minus", "\t",
    "  two", "item-00", "ITEM-003", "no such text", "ab",
)  # fmt: skip


def _write(path: Path, questions: tuple[str, ...], start: int = 0) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for i, question in enumerate(questions, start):
            answers = {k: k for k in ("direct", "tool_call", "request_for_info", "cannot_answer")}
            record = {
                "uuid": f"item-{i:03d}",
                "question": question,
                "correct_answer": "cannot_answer",
                "answers": answers,
                "tools": [],
            }
            out.write(json.dumps(record) + "\n")
    return path


def _expected(services: Services, search: str) -> int:
    rows = services.review.window("t", ItemFilter(), QA, None, 0, 1000)
    texts = [(services.review.detail(r.id, None).item.question, r.uuid) for r in rows]
    wanted = search.lower()
    return sum(wanted in q.lower() or wanted in u.lower() for q, u in texts)


def _check_all(services: Services) -> None:
    for search in SEARCHES:
        got = services.review.count("t", ItemFilter(search=search), QA, None)
        assert got == _expected(services, search), search


def test_search_matches_a_substring_scan(services: Services, tmp_path: Path) -> None:
    services.imports.import_path(_write(tmp_path / "a.jsonl", QUESTIONS), dataset="t")
    _check_all(services)
    # items imported later are found too (the importers keep the index without knowing it)
    later = ("Another Zürich question", "more 50% stuff")
    services.imports.import_path(_write(tmp_path / "b.jsonl", later, 100), dataset="t")
    assert services.review.count("t", ItemFilter(search="zürich"), QA, None) == 2
    _check_all(services)


def test_sqlite_searches_through_the_trigram_table(services: Services) -> None:
    engine = services.store.engine
    if engine.dialect.name == "sqlite":
        assert has_search_index(engine) == trigram_supported()
        if not trigram_supported():
            unavailable("FTS5's trigram tokenizer", "this SQLite lacks it: searches scan")
        with engine.connect() as connection:
            plan = connection.execute(
                text(
                    "EXPLAIN QUERY PLAN SELECT rowid FROM item_search "
                    "WHERE item_search MATCH '\"abc\"'"
                )
            ).all()
        assert any("VIRTUAL TABLE INDEX" in str(row[-1]) for row in plan)
    else:
        names = {r[0] for r in query(services.url, "SELECT indexname FROM pg_indexes")}
        assert {"ix_item_question_trgm", "ix_item_uuid_trgm"} <= names


@pytest.mark.sqlite_only
def test_the_migration_indexes_items_already_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url, migrate=False)
    upgrade(engine, "0009")
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO dataset (name, kind, imported_at) VALUES ('t', 'x', '2026-01-01')")
        )
        for i, question in enumerate(QUESTIONS):
            connection.execute(
                text(
                    "INSERT INTO item (dataset_id, uuid, position, kind, question, tools_json,"
                    " answers_json, n_tools, extra_json, content_hash, shuffle_key)"
                    " VALUES (1, :uuid, :i, 'test', :q, '[]', '[]', 0, '{}', 'x', :i)"
                ),
                {"uuid": f"item-{i:03d}", "i": i, "q": question},
            )
    engine.dispose()
    services = open_services(url)
    try:
        _check_all(services)
    finally:
        services.close()


@pytest.mark.sqlite_only
def test_text_beyond_the_indexed_prefix_is_not_searched(services: Services, tmp_path: Path) -> None:
    if not trigram_supported():
        unavailable("FTS5's trigram tokenizer", "this SQLite lacks it")
    long = "x" * INDEXED_CHARS + " needle at the end"
    services.imports.import_path(
        _write(tmp_path / "l.jsonl", (long, "a needle early")), dataset="t"
    )
    assert services.review.count("t", ItemFilter(search="needle"), QA, None) == 1
