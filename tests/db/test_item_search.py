"""Item search: the index answers exactly what a case-insensitive substring scan would, and
SQLite and PostgreSQL find the same items (each checked against the same Python scan)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic import command
from dbfixtures import query, unavailable
from sqlalchemy import text

import w2c_tui.db.import_items as import_items
from w2c_tui.db.engine import make_engine
from w2c_tui.db.item_search import INDEXED_CHARS, SearchIndex, search_index, trigram_supported
from w2c_tui.db.item_search import words as pg_words
from w2c_tui.db.migrate import alembic_config, upgrade
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services, open_services

QA = ReviewMode.ITEM_QA
LONG_RUN = "".join(f"{i:04d}" for i in range(100))  # 400 characters without white space
QUESTIONS = (
    "Weather in ZÜRICH tomorrow?",
    "Is item 5_ really 50% off?",
    "Plain 52 text, nothing odd",
    'He said "book it" AND left',
    "Find flights NEAR Kraków OR Łódź*",
    "東京の天気を教えてください",
    "column:value ^start (group) -minus",
    "tab\there and  two spaces",
    "I'm asking: what's the current weather, weatherman? Other one!!!",
    "the weather (current) in Bern, then the other",
    "a back\\slash and it''s 'quoted' & (x | y) !z :* done",
    f"blob {LONG_RUN} end",
    "Wéather, not weather; cafés and CAFÉ",
)
SEARCHES = (
    "zürich", "ZÜR", "rich tom", "5_", "_", "%", "50%", "5_ r", '"book it"', '"', "and",
    "NEAR", "łódź*", "Ó", "東京", "天気を", "column:v", "^st", "(group)", "-minus", "\t",
    "  two", "item-00", "ITEM-003", "no such text", "ab",
    # words, parts of words, several words, punctuation (PostgreSQL's word index)
    "weather", "WEATH", "eath", "the", "other", "then", "current weather", "current  weather",
    "weather,", "i'm", "I'M ASKING", "!!!", "what's", "'", "''", "\\", "back\\sl", "(x | y)",
    ":*", "!z", "& (x", "it''s", "café", "afé", "é", "x", "1", "wé",
    # inside a run longer than the index's pieces, across their seams, and the whole run
    LONG_RUN[:128], LONG_RUN[100:228], LONG_RUN[250:390], LONG_RUN[120:140], LONG_RUN,
    f"blob {LONG_RUN[:10]}", f"{LONG_RUN[-8:]} end", "0099 end",
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


def _found(services: Services, search: str) -> set[str]:
    flt = ItemFilter(search=search)
    review = services.review
    ids = review.order("t", flt, QA, None)
    assert review.count("t", flt, QA, None) == len(ids), search
    return {row.uuid for row in review.rows("t", ids, flt, QA, None)}


def _expected(services: Services, search: str) -> set[str]:
    rows = services.review.window("t", ItemFilter(), QA, None, 0, 1000)
    texts = [(services.review.detail(r.id, None).item.question, r.uuid) for r in rows]
    wanted = search.lower()
    return {u for q, u in texts if wanted in q[:INDEXED_CHARS].lower() or wanted in u.lower()}


def _check_all(services: Services) -> None:
    for search in SEARCHES:
        assert _found(services, search) == _expected(services, search), search


def test_search_matches_a_substring_scan(services: Services, tmp_path: Path) -> None:
    services.imports.import_path(_write(tmp_path / "a.jsonl", QUESTIONS), dataset="t")
    _check_all(services)
    # items imported later are found too (the importers keep the index without knowing it)
    later = ("Another Zürich question", "more 50% stuff", "a brand-new wordzz")
    services.imports.import_path(_write(tmp_path / "b.jsonl", later, 100), dataset="t")
    assert services.review.count("t", ItemFilter(search="zürich"), QA, None) == 2
    assert services.review.count("t", ItemFilter(search="wordz"), QA, None) == 1
    _check_all(services)


def test_a_large_import_fills_the_index_in_one_statement(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's trigram table and PostgreSQL's vocabulary filled after the rows, not by their
    triggers (db/import_items: from BULK_SEARCH_ROWS new items on), find the same items; the
    triggers are back on for the next, small import."""
    monkeypatch.setattr(import_items, "BULK_SEARCH_ROWS", 2)
    services.imports.import_path(_write(tmp_path / "a.jsonl", QUESTIONS), dataset="t")
    _check_all(services)
    if services.url.startswith("postgresql"):
        enabled = "SELECT tgenabled FROM pg_trigger WHERE tgname = 'item_search_word_insert'"
        assert query(services.url, enabled) == [("O",)]
    monkeypatch.setattr(import_items, "BULK_SEARCH_ROWS", 500)
    later = ("a brand-new wordzz", "more 50% stuff")
    services.imports.import_path(_write(tmp_path / "b.jsonl", later, 100), dataset="t")
    assert services.review.count("t", ItemFilter(search="wordz"), QA, None) == 1
    _check_all(services)


def test_a_search_too_common_for_the_word_index_still_matches(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: a piece found in more words than MAX_WORDS is left to ILIKE (on SQLite the
    same searches, as a control)."""
    monkeypatch.setattr(pg_words, "MAX_WORDS", 2)
    services.imports.import_path(_write(tmp_path / "a.jsonl", QUESTIONS), dataset="t")
    _check_all(services)


def test_the_index_answers_searches(services: Services) -> None:
    engine = services.store.engine
    if engine.dialect.name == "sqlite":
        assert (search_index(engine) is SearchIndex.TRIGRAM) == trigram_supported()
        if not trigram_supported():
            unavailable("FTS5's trigram tokenizer", "this SQLite lacks it: searches scan")
        match = "EXPLAIN QUERY PLAN SELECT rowid FROM item_search WHERE item_search MATCH '\"abc\"'"
        with engine.connect() as connection:
            plan = connection.execute(text(match)).all()
        assert any("VIRTUAL TABLE INDEX" in str(row[-1]) for row in plan)
        return
    assert search_index(engine) is SearchIndex.WORDS
    names = {r[0] for r in query(services.url, "SELECT indexname FROM pg_indexes")}
    indexes = {"ix_item_question_trgm", "ix_item_uuid_trgm", "item_search_words_gin"}
    assert indexes | {"item_search_word_trgm"} <= names
    words = (
        "EXPLAIN SELECT id FROM item WHERE item_search_words(question, uuid) @@ CAST(:q AS tsquery)"
    )
    with engine.begin() as connection:
        connection.execute(text("SET LOCAL enable_seqscan = off"))
        plan = connection.execute(text(words), {"q": "'abc'"}).all()
    assert any("item_search_words_gin" in str(row[0]) for row in plan)


def test_pieces_and_lexemes() -> None:
    assert pg_words.pieces("  Current weather, I'M  café ") == ["weather,", "current", "caf", "i'm"]
    assert pg_words.pieces("x" * 300) == ["x" * pg_words.MAX_PIECE]
    assert pg_words.pieces("東京 \t") == []
    assert pg_words.tsquery((("a", "it's"), ("b\\c",))) == "('a' | 'it''s') & ('b\\\\c')"


def test_the_migration_indexes_items_already_stored(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url, migrate=False)
    before = "0026" if engine.dialect.name == "postgresql" else "0009"  # the index's revision - 1
    upgrade(engine, before)
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO dataset (name, kind, imported_at) VALUES ('t', 'x', '2026-01-01')")
        )
        for i, question in enumerate(QUESTIONS):
            connection.execute(
                text(
                    "INSERT INTO item (dataset_id, uuid, position, kind, question, tools_json,"
                    " answers_json, n_tools, extra_json, content_hash, shuffle_key)"
                    " SELECT id, :uuid, :i, 'test', :q, '[]', '[]', 0, '{}', 'x', :i FROM dataset"
                ),
                {"uuid": f"item-{i:03d}", "i": i, "q": question},
            )
    engine.dispose()
    services = open_services(empty_db_url)
    try:
        _check_all(services)
    finally:
        services.close()


def test_a_changed_question_is_indexed(pg_url: str, tmp_path: Path) -> None:
    services = open_services(pg_url)
    try:
        services.imports.import_path(_write(tmp_path / "a.jsonl", QUESTIONS), dataset="t")
        with services.store.engine.begin() as connection:
            connection.execute(
                text("UPDATE item SET question = 'now about zanzibar' WHERE uuid = 'item-000'")
            )
        assert services.review.count("t", ItemFilter(search="anziba"), QA, None) == 1
        _check_all(services)
    finally:
        services.close()


def test_the_word_index_goes_and_comes_back(pg_url: str, tmp_path: Path) -> None:
    services = open_services(pg_url)
    try:
        services.imports.import_path(_write(tmp_path / "a.jsonl", QUESTIONS), dataset="t")
    finally:
        services.close()
    engine = make_engine(pg_url, migrate=False)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0026")
    assert search_index(engine) is SearchIndex.SCAN
    functions = {r[0] for r in query(pg_url, "SELECT proname FROM pg_proc")}
    assert not {"item_search_words", "item_search_word_inserted"} & functions
    upgrade(engine)
    engine.dispose()
    services = open_services(pg_url)
    try:
        _check_all(services)
    finally:
        services.close()


def test_text_beyond_the_indexed_prefix_is_not_searched(services: Services, tmp_path: Path) -> None:
    long = "x" * INDEXED_CHARS + " needle at the end"
    services.imports.import_path(
        _write(tmp_path / "l.jsonl", (long, "a needle early")), dataset="t"
    )
    for search in ("needle", "ne", "a ne", "xx"):
        assert services.review.count("t", ItemFilter(search=search), QA, None) == 1, search
