"""Search over items: a case-insensitive substring match, answered from a trigram index.

SQLite: `item_search`, an FTS5 table with the trigram tokenizer (case folded), kept in step
with `item` by triggers (migration 0012), so every importer maintains it without knowing. A
quoted FTS5 phrase of three or more characters matches exactly the items whose text contains
it as a substring, whatever characters it holds (`%`, `_`, quotes are plain text there).
Shorter searches, and SQLite builds without FTS5's trigram tokenizer, scan with LIKE.

PostgreSQL: `ILIKE` over GIN trigram indexes (pg_trgm) where the migration could install the
extension; without them the same query scans.

The index holds the first INDEXED_CHARS characters of each question (a 50 MB question would
otherwise cost hundreds of MB of index); text beyond that is found by no search.
"""

from __future__ import annotations

import functools
import sqlite3
from typing import Any

from sqlalchemy import Engine, inspect, or_, select, text
from sqlmodel import col

from w2c_tui.db.tables import ItemRow

SEARCH_TABLE = "item_search"
BULK_HASH_BYTES = 64 << 20
"""FTS5's pending-index memory while a large import indexes its items (db/import_items)."""
FTS5_HASH_BYTES = 1 << 20
"""FTS5's own default for it."""
PG_INDEXES = ("ix_item_question_trgm", "ix_item_uuid_trgm")
INDEXED_CHARS = 20_000
MIN_INDEXED_SEARCH = 3
"""Trigrams need three characters: a shorter search scans."""


@functools.cache
def trigram_supported() -> bool:
    """Whether this process's SQLite has FTS5 with the case-folding trigram tokenizer."""
    try:
        with sqlite3.connect(":memory:") as probe:
            probe.execute(
                "CREATE VIRTUAL TABLE probe USING fts5(t, tokenize='trigram case_sensitive 0')"
            )
    except sqlite3.Error:
        return False
    return True


def is_search_object(name: str | None) -> bool:
    """Whether a schema object belongs to the search index (not declared in tables.py)."""
    return bool(name) and (str(name).startswith(SEARCH_TABLE) or name in PG_INDEXES)


def has_search_index(engine: Engine) -> bool:
    """Whether searches on this database can use the SQLite trigram table."""
    if engine.dialect.name != "sqlite" or not trigram_supported():
        return False
    return SEARCH_TABLE in inspect(engine).get_table_names()


def fts_phrase(search: str) -> str:
    """`search` as one FTS5 string (double quotes doubled): matched as a literal substring."""
    return '"' + search.replace('"', '""') + '"'


def search_condition(search: str, *, indexed: bool) -> Any:
    """Condition on ItemRow: the question or uuid contains `search`, ignoring case."""
    if indexed and len(search) >= MIN_INDEXED_SEARCH:
        match = text(f"{SEARCH_TABLE} MATCH :search_phrase").bindparams(
            search_phrase=fts_phrase(search)
        )
        return col(ItemRow.id).in_(
            select(text("rowid")).select_from(text(SEARCH_TABLE)).where(match)
        )
    # case-insensitive (SQLite's lower() is made Unicode-aware in engine.py)
    return or_(
        col(ItemRow.question).icontains(search, autoescape=True),
        col(ItemRow.uuid).icontains(search, autoescape=True),
    )
