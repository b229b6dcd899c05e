"""What every way of searching shares: the searched text, a search resolved for one database,
and the plain substring test every index must agree with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from sqlalchemy import func, or_
from sqlmodel import col

from w2c_tui.db.tables import ItemRow

INDEXED_CHARS = 20_000
"""Searches see the first INDEXED_CHARS characters of each question (the indexes hold no more:
a 50 MB question would otherwise cost hundreds of MB of index); text beyond is found by none."""


class SearchIndex(Enum):
    """How a database answers a search."""

    SCAN = "scan"
    """LIKE over every item (SQLite without FTS5's trigram tokenizer)."""
    TRIGRAM = "trigram"
    """SQLite: the FTS5 trigram table `item_search` (migration 0012)."""
    WORDS = "words"
    """PostgreSQL: the word index and its vocabulary (migration 0027), pg_trgm for the rest."""


@dataclass(frozen=True, slots=True)
class Search:
    """A search resolved for one database: what the index needs to answer it."""

    text: str
    index: SearchIndex = SearchIndex.SCAN
    words: tuple[tuple[str, ...], ...] | None = None
    """WORDS: for each piece of the text used, every indexed word that contains it (an item
    matches only if it has one of each); None where the word index cannot narrow the search."""
    exact: bool = False
    """WORDS: the text is one piece, so having one of its words is matching (no recheck)."""


def question_contains(search: str) -> Any:
    """Condition on ItemRow: the searched part of the question contains `search`, ignoring case
    (SQLite's lower() is made Unicode-aware in engine.py; PostgreSQL says ILIKE)."""
    searched = func.substr(col(ItemRow.question), 1, INDEXED_CHARS)
    return searched.icontains(search, autoescape=True)


def uuid_contains(search: str) -> Any:
    """Condition on ItemRow: the uuid contains `search`, ignoring case."""
    return col(ItemRow.uuid).icontains(search, autoescape=True)


def scan_condition(search: str) -> Any:
    """Condition on ItemRow: the question or the uuid contains `search` (no index)."""
    return or_(question_contains(search), uuid_contains(search))
