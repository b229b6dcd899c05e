"""Search over items: a case-insensitive substring match of the question or the uuid, answered
from an index where the database has one.

Every database gives the same items for the same search: those whose uuid, or the first
INDEXED_CHARS characters of whose question, contain the search text, ignoring case. Several
words are one literal string (spaces included), and a part of a word finds every word
containing it. SQLite answers from an FTS5 trigram table (fts5.py), PostgreSQL from a word
index and its vocabulary (words.py); without them a search scans.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, inspect

from w2c_tui.db.item_search.base import INDEXED_CHARS, Search, SearchIndex, scan_condition
from w2c_tui.db.item_search.fts5 import (
    BULK_HASH_BYTES,
    FTS5_HASH_BYTES,
    SEARCH_TABLE,
    has_trigram_table,
    trigram_condition,
    trigram_supported,
)
from w2c_tui.db.item_search.words import (
    FILL_VOCABULARY,
    VOCABULARY,
    VOCABULARY_TRIGGER,
    resolve_words,
    words_condition,
)

__all__ = [
    "BULK_HASH_BYTES",
    "FILL_VOCABULARY",
    "FTS5_HASH_BYTES",
    "INDEXED_CHARS",
    "SEARCH_TABLE",
    "VOCABULARY_TRIGGER",
    "Search",
    "SearchIndex",
    "is_search_object",
    "resolve",
    "search_condition",
    "search_index",
    "trigram_supported",
]

PG_TRIGRAM_INDEXES = ("ix_item_question_trgm", "ix_item_uuid_trgm")
"""pg_trgm's indexes on item (migration 0012)."""


def is_search_object(name: str | None) -> bool:
    """Whether a schema object belongs to a search index (not declared in tables.py)."""
    return bool(name) and (str(name).startswith(SEARCH_TABLE) or name in PG_TRIGRAM_INDEXES)


def search_index(engine: Engine) -> SearchIndex:
    """How searches on this database are answered."""
    if engine.dialect.name == "postgresql":
        has_words = VOCABULARY in inspect(engine).get_table_names()
        return SearchIndex.WORDS if has_words else SearchIndex.SCAN
    return SearchIndex.TRIGRAM if has_trigram_table(engine) else SearchIndex.SCAN


def resolve(connection: Connection, text: str, index: SearchIndex) -> Search:
    """`text` made ready for `index` (PostgreSQL's word index looks up its words here)."""
    if index is SearchIndex.WORDS:
        return resolve_words(connection, text)
    return Search(text, index)


def search_condition(search: Search) -> Any:
    """Condition on ItemRow: the question or the uuid contains `search.text`, ignoring case."""
    if search.index is SearchIndex.TRIGRAM:
        return trigram_condition(search.text)
    if search.index is SearchIndex.WORDS:
        return words_condition(search)
    return scan_condition(search.text)
