"""Storing imported items in batches: every column as the row-by-row writer stored it, the
search index kept, and nothing left behind by an import that fails part way."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import query, row_counts, unavailable
from sqlalchemy import create_engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

import w2c_tui.db.import_items as import_items
from w2c_tui.db.item_search import FTS5_HASH_BYTES, trigram_supported
from w2c_tui.domain.records import ItemRecord
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.team import shuffle_key
from w2c_tui.io.importers import read_bundle
from w2c_tui.services import Services, open_services

QA = ReviewMode.ITEM_QA
SPEC = {"name": "get_weather", "parameters": {"type": "dict", "properties": {"city": {}}}}
SPEC_TEXT = json.dumps(SPEC)
ANSWERS = {
    "direct": "It is sunny.",
    "tool_call": '{"name": "get_weather"}',
    "request_for_info": "Which city?",
    "cannot_answer": "I cannot.",
}
COLUMNS = (
    "uuid, position, kind, question, tools_json, answers_json, gold, n_tools, source, "
    "source_id, held_out_param, target_tool, orig_question, extra_json, content_hash, "
    "shuffle_key, raw_line"
)


def _items() -> list[dict[str, Any]]:
    """Lines that differ in every way a stored column can: None or not, objects or strings,
    non-ASCII, line separators inside strings, extra fields, the `direct_answer` synonym."""
    items: list[dict[str, Any]] = []
    for i in range(11):
        item: dict[str, Any] = {
            "uuid": f"u-{i:02d}",
            "question": f"Wetter in Zürich morgen? {i}" + ("\u2028 zweite Zeile" if i % 3 else ""),
            "correct_answer": ("tool_call", "request_for_info", "cannot_answer")[i % 3],
            "answers": dict(ANSWERS),
            "tools": [SPEC_TEXT, SPEC_TEXT.replace("city", f"city_{i}")][: i % 3],
        }
        if i % 4 == 0:
            item["tools"].append({"name": "東京", "parameters": {}})  # an object: dumped
            item["target_tool"] = SPEC_TEXT
        if i % 4 == 1:
            item["target_tool"] = {"name": "ünïcode"}
        if i % 3 == 1:
            item["held_out_param"] = "city"
            item["orig_question"] = "Wetter in Zürich?"
        if i % 3 == 2:
            item["orig_tools"] = [SPEC_TEXT] if i % 2 else None
        if i % 5 == 0:
            item["source"], item["source_id"] = "BFCL v2 Live Simple", f"live_{i}"
            item["z_note"] = {"b": 1.5, "a": [True, None, "ß"]}  # extra, keys not sorted
        if i == 7:
            item["answers"] = {
                "direct_answer": "Sunny.",
                **{k: ANSWERS[k] for k in list(ANSWERS)[1:]},
            }
        items.append(item)
    return items


def _write(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text(
        "".join(json.dumps(item, ensure_ascii=i % 2 == 0) + "\n" for i, item in enumerate(items)),
        encoding="utf-8",
    )
    return path


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _reference_hash(record: ItemRecord) -> str:
    """ItemRecord.content_hash as it was first written: stored hashes must keep matching it."""
    payload = {
        "uuid": record.uuid,
        "question": record.question,
        "tools": list(record.tools),
        "answers": [list(a) for a in record.answers],
        "gold": record.gold.value if record.gold else None,
        "kind": record.kind.value,
        "source": record.source,
        "source_id": record.source_id,
        "held_out_param": record.held_out_param,
        "target_tool": record.target_tool,
        "orig_question": record.orig_question,
        "extra": record.extra,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _expected(record: ItemRecord, position: int) -> tuple[object, ...]:
    return (
        record.uuid,
        position,
        record.kind.value,
        record.question,
        _compact(list(record.tools)),
        _compact([list(a) for a in record.answers]),
        record.gold.value if record.gold else None,
        len(record.tools),
        record.source,
        record.source_id,
        record.held_out_param,
        record.target_tool,
        record.orig_question,
        _compact(record.extra),
        _reference_hash(record),
        shuffle_key(record.uuid),
        record.raw,
    )


def _stored(services: Services) -> list[tuple[object, ...]]:
    return query(services.url, f"SELECT {COLUMNS} FROM item ORDER BY position")


@pytest.mark.parametrize("bulk_search", [False, True])
def test_every_column_is_stored_as_the_row_by_row_writer_did(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bulk_search: bool
) -> None:
    monkeypatch.setattr(import_items, "ITEM_BATCH", 3)  # three batches, then one
    if bulk_search:  # SQLite: the search index filled in one statement after the rows
        monkeypatch.setattr(import_items, "BULK_SEARCH_ROWS", 2)
    items = _items()
    first = _write(tmp_path / "first.jsonl", items[:8])
    report = services.imports.import_path(first, dataset="t")
    assert report.items_new == 8
    records = read_bundle(first).items
    assert _stored(services) == [_expected(r, n) for n, r in enumerate(records)]
    # a later file: known items counted unchanged, new ones appended after the stored ones
    second = _write(tmp_path / "second.jsonl", items[5:])
    report = services.imports.import_path(second, dataset="t")
    assert (report.items_new, report.items_unchanged, report.items_changed) == (3, 3, ())
    records += read_bundle(second).items[3:]
    assert _stored(services) == [_expected(r, n) for n, r in enumerate(records)]
    assert services.imports.import_path(second, dataset="t").changed_nothing
    assert services.review.count("t", ItemFilter(search="zürich morgen? 9"), QA, None) == 1


def test_the_content_hash_is_the_one_stored_before() -> None:
    record = ItemRecord(
        uuid="u-1",
        question="Wetter in Zürich?\u2028",
        tools=(SPEC_TEXT,),
        answers=tuple(ANSWERS.items()),
        gold=None,
        line=1,
        extra={"b": [1.5, None], "a": "ß"},
    )
    assert record.content_hash() == _reference_hash(record)
    assert record.content_hash() == (
        "b37bba38f0bc2b363ea6e21f5d9c0ad643ea607a6be5c2fba66e9083c2c82198"
    )


@pytest.mark.parametrize("where", ["building a batch", "storing a batch"])
def test_an_import_that_fails_part_way_leaves_nothing(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    services.imports.import_path(_write(tmp_path / "before.jsonl", _items()[:2]), dataset="t")
    before = row_counts(services.url)
    stored = _stored(services)
    monkeypatch.setattr(import_items, "ITEM_BATCH", 2)
    monkeypatch.setattr(import_items, "BULK_SEARCH_ROWS", 2)  # SQLite: the trigger dropped
    values = import_items._item_values

    def failing(record: ItemRecord, *args: Any) -> dict[str, object]:
        row = values(record, *args)
        if record.uuid == "u-07":  # a row of the third batch
            if where == "building a batch":
                raise RuntimeError("failed while building")
            row["dataset_id"] = None  # NOT NULL: the database refuses the batch
        return row

    monkeypatch.setattr(import_items, "_item_values", failing)
    path = _write(tmp_path / "more.jsonl", _items())
    expected = RuntimeError if where == "building a batch" else IntegrityError
    with pytest.raises(expected):
        services.imports.import_path(path, dataset="t")
    assert row_counts(services.url) == before
    assert _stored(services) == stored
    monkeypatch.setattr(import_items, "_item_values", values)
    assert services.imports.import_path(path, dataset="t").items_new == 9
    assert services.review.count("t", ItemFilter(search="zürich morgen? 10"), QA, None) == 1


@pytest.mark.sqlite_only
def test_the_search_trigger_and_fts_setting_come_back(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_items, "BULK_SEARCH_ROWS", 2)  # the bulk fill, on 11 items
    if not trigram_supported():
        unavailable("FTS5's trigram tokenizer", "this SQLite lacks it: there is no index to keep")
    schema = "SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'item_search%' ORDER BY 2"
    before = query(services.url, schema)
    assert any(name == "item_search_insert" for _type, name, _sql in before)
    path = _write(tmp_path / "a.jsonl", _items())
    services.imports.import_path(path, dataset="dry", dry_run=True)
    assert query(services.url, schema) == before
    services.imports.import_path(path, dataset="t")
    assert query(services.url, schema) == before
    setting = "SELECT v FROM item_search_config WHERE k = 'hashsize'"
    assert query(services.url, setting) in ([], [(FTS5_HASH_BYTES,)])
    # the trigger still indexes rows that other writers insert
    engine = create_engine(services.url, poolclass=NullPool)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO item (dataset_id, uuid, position, kind, question, tools_json,"
            " answers_json, n_tools, extra_json, content_hash, shuffle_key)"
            " SELECT dataset_id, 'late', 99, 'test', 'a late needle', '[]', '[]', 0, '{}', 'x', 0"
            " FROM item LIMIT 1"
        )
    engine.dispose()
    assert services.review.count("t", ItemFilter(search="late needle"), QA, None) == 1


def test_postgresql_compresses_the_long_values_with_lz4(pg_url: str, tmp_path: Path) -> None:
    has_lz4 = query(
        pg_url,
        "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'",
    )
    if has_lz4 != [(True,)]:
        unavailable("lz4 TOAST compression", "this PostgreSQL server was built without lz4")
    services = open_services(pg_url)
    try:
        items = _items()[:3]
        items[1]["question"] = "Wetter in Zürich? " * 1000  # long enough to be compressed
        path = _write(tmp_path / "long.jsonl", items)
        services.imports.import_path(path, dataset="t")
        records = read_bundle(path).items
        assert _stored(services) == [_expected(r, n) for n, r in enumerate(records)]
        compressed = "SELECT pg_column_compression(question) FROM item WHERE uuid = 'u-01'"
        assert query(pg_url, compressed) == [("lz4",)]
    finally:
        services.close()
