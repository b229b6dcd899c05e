"""Storing an import's items: new ones appended, known ones compared by content hash."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from json.encoder import encode_basestring
from operator import itemgetter
from typing import Any

from sqlalchemy import Connection, Insert, bindparam, insert, text, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func, select

from w2c_tui.db.convert import dumps
from w2c_tui.db.item_search import (
    BULK_HASH_BYTES,
    FILL_VOCABULARY,
    FTS5_HASH_BYTES,
    INDEXED_CHARS,
    SEARCH_TABLE,
    VOCABULARY_TRIGGER,
)
from w2c_tui.db.tables import ItemRow
from w2c_tui.domain.records import ImportReport, ItemRecord
from w2c_tui.domain.team import shuffle_key

ITEM_BATCH = 2000
BULK_SEARCH_ROWS = 500
"""From this many new items on, the search index (SQLite) or the word vocabulary (PostgreSQL)
is filled in one statement (see _insert_items)."""
SEARCH_TRIGGER = "item_search_insert"
BULK_CACHE_KIB = 64 * 1024
"""SQLite's page cache for the connection while a large import writes (see _insert_items)."""
SPEC_CACHE = 20_000
"""At most this many tool specs' JSON kept while building rows (a file whose every tool is
different would otherwise hold each twice)."""


def store_items(
    session: Session, dataset_id: int, items: tuple[ItemRecord, ...], report: ImportReport
) -> ImportReport:
    """Append the new items in file order; count unchanged and changed ones (never updated),
    and give unchanged items imported before lines were kept their line."""
    if not items:
        return report
    known = session.execute(
        sa_select(
            col(ItemRow.uuid),
            col(ItemRow.content_hash),
            col(ItemRow.id),
            col(ItemRow.raw_line).is_(None),
        ).where(col(ItemRow.dataset_id) == dataset_id)
    ).all()
    existing = {uuid: digest for uuid, digest, _id, _none in known}
    no_raw = {uuid: item_id for uuid, _digest, item_id, none in known if none}
    backfill: list[dict[str, object]] = []
    last = session.exec(
        select(func.max(ItemRow.position)).where(col(ItemRow.dataset_id) == dataset_id)
    ).one()
    position = -1 if last is None else int(last)
    new_rows: list[dict[str, object]] = []
    unchanged = 0
    changed: list[str] = []
    specs: dict[str, str] = {}  # the file's tool specs, each encoded once (see _texts_json)
    for record in items:
        if len(specs) > SPEC_CACHE:
            specs.clear()
        if record.uuid in existing:
            if existing[record.uuid] == record.content_hash():
                unchanged += 1
                if record.raw is not None and record.uuid in no_raw:
                    backfill.append({"row_id": no_raw[record.uuid], "raw": record.raw})
            else:
                changed.append(record.uuid)
            continue
        position += 1
        new_rows.append(_item_values(record, dataset_id, position, specs))
    _insert_items(session, new_rows)
    if backfill:  # items imported before their lines were kept get them now (same content)
        session.connection().execute(
            update(ItemRow)
            .where(col(ItemRow.id) == bindparam("row_id"))
            .values(raw_line=bindparam("raw")),
            backfill,
        )
    return replace(
        report, items_new=len(new_rows), items_unchanged=unchanged, items_changed=tuple(changed)
    )


def _insert_items(session: Session, rows: list[dict[str, object]]) -> None:
    """Insert the new items with Core's executemany on the table (every row has the same keys:
    one statement per batch; the ORM's bulk insert split the rows by which values were None,
    13,759 single-row INSERTs for 20,000 items).

    On SQLite a large import fills the search index once, after the rows, instead of through
    the per-row trigger: the trigger is dropped and created again inside this transaction,
    which holds the write lock, so no other connection ever sees the table without it, and a
    rollback restores it with everything else. 20,000 items: 7.1 s → 3.2 s in SQLite.

    While it fills the index, FTS5 may hold BULK_HASH_BYTES of new entries in memory (its
    `hashsize`; at the default 1 MiB it writes and merges small segments over and over: 8.3 s
    of CPU for 100,000 items, 4.9 s with 64 MiB); the setting is put back before the commit.

    A large import on SQLite also lets this connection cache BULK_CACHE_KIB of pages (its
    `cache_size`, put back after): with the default 2 MiB the pages of the random-order
    indexes (uuid, shuffle key) and of the search index were written out to the WAL and read
    back over and over, 1.29 M writes and 0.85 M reads for 100,000 items, 0.95 M and 0.48 M
    with 64 MiB (about 750 k writes are the floor: each page once to the WAL, once back)."""
    if not rows:
        return
    table = ItemRow.__table__  # type: ignore[attr-defined]
    connection = session.connection()
    bulk = connection.dialect.name == "sqlite" and len(rows) >= BULK_SEARCH_ROWS
    trigger = (
        connection.execute(
            text("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = :name"),
            {"name": SEARCH_TRIGGER},
        ).scalar()
        if bulk
        else None
    )
    first_id = None
    if trigger is not None:
        first_id = _last_item_id(connection)
        connection.execute(text(f"DROP TRIGGER {SEARCH_TRIGGER}"))
        hash_bytes = connection.execute(
            text(f"SELECT v FROM {SEARCH_TABLE}_config WHERE k = 'hashsize'")
        ).scalar_one_or_none()
    vocabulary_from = None
    if connection.dialect.name == "postgresql":
        _fast_toast(connection)
        if len(rows) >= BULK_SEARCH_ROWS:
            vocabulary_from = _pause_vocabulary_trigger(connection)
    with _page_cache(connection, BULK_CACHE_KIB if bulk else None):
        _execute_many(connection, insert(table), rows)
        if vocabulary_from is not None:
            connection.execute(text(FILL_VOCABULARY), {"first": vocabulary_from})
            connection.exec_driver_sql(f"ALTER TABLE item ENABLE TRIGGER {VOCABULARY_TRIGGER}")
        if trigger is not None:
            _set_hashsize(connection, BULK_HASH_BYTES)
            connection.execute(
                text(
                    f"INSERT INTO {SEARCH_TABLE}(rowid, question, uuid) "
                    f"SELECT id, substr(question, 1, {INDEXED_CHARS}), uuid FROM item "
                    "WHERE id > :first"
                ),
                {"first": first_id},
            )
            _set_hashsize(connection, FTS5_HASH_BYTES if hash_bytes is None else int(hash_bytes))
    if trigger is not None:
        connection.exec_driver_sql(str(trigger))  # as stored: no bind parameters read into it


def _pause_vocabulary_trigger(connection: Connection) -> int | None:
    """PostgreSQL, a large import: the word vocabulary's insert trigger (migration 0027) off
    for this transaction, to be filled once after the rows (FILL_VOCABULARY). psycopg sends an
    executemany as one INSERT per row, so the statement trigger ran once per item: 2.3 s of an
    import of 20,000 real items. Returns the last item id before the import (None, trigger left
    as it is, where there is no enabled trigger: an old schema, or SQLite).

    ALTER TABLE … DISABLE TRIGGER is transactional: other sessions never see the trigger off,
    and a rollback turns it back on with everything else. It holds a SHARE ROW EXCLUSIVE lock
    on `item` until the commit: reads go on, another import into `item` waits for this one."""
    enabled = connection.execute(
        text(
            "SELECT 1 FROM pg_trigger WHERE tgrelid = 'item'::regclass AND tgname = :name "
            "AND tgenabled <> 'D'"
        ),
        {"name": VOCABULARY_TRIGGER},
    ).first()
    if enabled is None:
        return None
    connection.exec_driver_sql(f"ALTER TABLE item DISABLE TRIGGER {VOCABULARY_TRIGGER}")
    return _last_item_id(connection)


def _last_item_id(connection: Connection) -> int:
    """The highest item id so far (0 in an empty table): the rows an import adds come after."""
    return int(connection.execute(text("SELECT COALESCE(MAX(id), 0) FROM item")).scalar_one())


def _execute_many(connection: Connection, statement: Insert, rows: list[dict[str, object]]) -> None:
    """`statement` for every row (all with the same keys), ITEM_BATCH rows per executemany,
    compiled once and handed to the driver as it takes parameters (tuples in the statement's
    order for SQLite's `?`, the dicts themselves for psycopg's `%(name)s`): what
    connection.execute(statement, rows) sends, without its per-row parameter processing
    (~1 s of CPU per 100,000 items under the profiler). The table's columns need no bind
    processing on either driver; a statement that would need it (or that adds a column default
    the rows do not hold) goes the usual way."""
    compiled = statement.compile(dialect=connection.dialect, column_keys=list(rows[0]))
    keys = set(rows[0])
    # a private attribute (no public way to ask); a column default would add a parameter
    if compiled._bind_processors or set(compiled.params) != keys:
        for start in range(0, len(rows), ITEM_BATCH):
            connection.execute(statement, rows[start : start + ITEM_BATCH])
        return
    order = compiled.positiontup
    values = itemgetter(*order) if compiled.positional and order else None
    for start in range(0, len(rows), ITEM_BATCH):
        batch = rows[start : start + ITEM_BATCH]
        params: Any = batch if values is None else [values(row) for row in batch]
        connection.exec_driver_sql(compiled.string, params)


def _fast_toast(connection: Connection) -> None:
    """PostgreSQL: this transaction compresses long values with lz4 where the server has it
    (SET LOCAL: back to the server's setting at commit or rollback). The rows read back the
    same; an item's raw line and tool JSON, ~8 KB, are compressed on the server as they go in,
    and pglz, the default, cost ~1.8 s of 6.7 s for 20,000 items (lz4: 4.9 s)."""
    has_lz4 = connection.exec_driver_sql(
        "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
    ).scalar()
    if has_lz4:
        connection.exec_driver_sql("SET LOCAL default_toast_compression = 'lz4'")


@contextmanager
def _page_cache(connection: Connection, kib: int | None) -> Iterator[None]:
    """SQLite's page cache for this connection at `kib` KiB inside (None: left as it is), put
    back on leaving, also when an error leaves."""
    if kib is None:
        yield
        return
    before = int(connection.exec_driver_sql("PRAGMA cache_size").scalar_one())
    connection.exec_driver_sql(f"PRAGMA cache_size=-{kib}")
    try:
        yield
    finally:
        connection.exec_driver_sql(f"PRAGMA cache_size={before}")


def _set_hashsize(connection: Connection, nbytes: int) -> None:
    """FTS5's `hashsize` for the search table: how many bytes of new index entries it holds in
    memory before writing a segment out (a setting stored in the database)."""
    connection.execute(
        text(f"INSERT INTO {SEARCH_TABLE}({SEARCH_TABLE}, rank) VALUES ('hashsize', :n)"),
        {"n": nbytes},
    )


def _item_values(
    record: ItemRecord, dataset_id: int, position: int, specs: dict[str, str]
) -> dict[str, object]:
    tools_json = _texts_json(record.tools, specs)
    answers_json = _answers_json(record.answers)
    return {
        "dataset_id": dataset_id,
        "uuid": record.uuid,
        "position": position,
        "kind": record.kind.value,
        "question": record.question,
        "tools_json": tools_json,
        "answers_json": answers_json,
        "gold": record.gold.value if record.gold else None,
        "n_tools": len(record.tools),
        "source": record.source,
        "source_id": record.source_id,
        "held_out_param": record.held_out_param,
        "target_tool": record.target_tool,
        "orig_question": record.orig_question,
        "extra_json": dumps(record.extra) if record.extra else "{}",
        # the same hash as record.content_hash(), the two lists not encoded a second time
        "content_hash": record.content_hash_from(tools_json, answers_json),
        "shuffle_key": shuffle_key(record.uuid),
        "raw_line": record.raw,
    }


def _texts_json(texts: tuple[str, ...], encoded: dict[str, str]) -> str:
    """dumps(list(texts)), taking each string's JSON from `encoded` when it is there (and
    leaving it there): files repeat their tool specs, ~1 KiB each with many quotes to escape."""
    parts: list[str] = []
    for spec in texts:
        json_text = encoded.get(spec)
        if json_text is None:
            json_text = encoded[spec] = encode_basestring(spec)
        parts.append(json_text)
    return "[" + ",".join(parts) + "]"


def _answers_json(answers: tuple[tuple[str, str], ...]) -> str:
    """dumps([list(a) for a in answers]), each string through the encoder's own function."""
    return (
        "["
        + ",".join(
            f"[{encode_basestring(name)},{encode_basestring(text)}]" for name, text in answers
        )
        + "]"
    )
