"""SQLite: search through `item_search`, an FTS5 table with the trigram tokenizer (case folded).

The table is kept in step with `item` by triggers (migration 0012), so every importer maintains
it without knowing. A quoted FTS5 phrase of three or more characters matches exactly the items
whose text contains it as a substring, whatever characters it holds (`%`, `_`, quotes are plain
text there): a search of several words is one literal string, spaces included, and a part of a
word finds every word containing it. Shorter searches, and SQLite builds without FTS5's
trigram tokenizer, scan with LIKE.
"""

from __future__ import annotations

import functools
import sqlite3
from typing import Any

from sqlalchemy import Engine, inspect, select, text
from sqlmodel import col

from w2c_tui.db.item_search.base import scan_condition
from w2c_tui.db.tables import ItemRow

SEARCH_TABLE = "item_search"
BULK_HASH_BYTES = 64 << 20
"""FTS5's pending-index memory while a large import indexes its items (db/import_items)."""
FTS5_HASH_BYTES = 1 << 20
"""FTS5's own default for it."""
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


def has_trigram_table(engine: Engine) -> bool:
    """Whether searches on this SQLite database can use the trigram table."""
    if engine.dialect.name != "sqlite" or not trigram_supported():
        return False
    return SEARCH_TABLE in inspect(engine).get_table_names()


def fts_phrase(search: str) -> str:
    """`search` as one FTS5 string (double quotes doubled): matched as a literal substring."""
    return '"' + search.replace('"', '""') + '"'


def trigram_condition(search: str) -> Any:
    """Condition on ItemRow: the question or uuid contains `search`, from the trigram table."""
    if len(search) < MIN_INDEXED_SEARCH:
        return scan_condition(search)
    match = text(f"{SEARCH_TABLE} MATCH :search_phrase").bindparams(
        search_phrase=fts_phrase(search)
    )
    # the table holds the uuid too
    return col(ItemRow.id).in_(select(text("rowid")).select_from(text(SEARCH_TABLE)).where(match))
