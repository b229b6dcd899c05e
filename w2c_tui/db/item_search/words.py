"""PostgreSQL: search through a word index, giving exactly what SQLite's substring search gives.

Migration 0027 indexes each item's words: `item_search_words(question, uuid)` is the tsvector
of the runs of characters between white space in the lowercased first 20,000 characters of the
question and in the uuid (a run longer than 256 characters as overlapping pieces of 256, one
every 128, so that a piece of up to 128 characters of it lies wholly inside one), under a GIN
index. `item_search_word`, kept by triggers, lists every such word once, with a trigram index.

A search is a substring match, as on SQLite, not a match of whole words: "weath" finds
"weather", "the" finds "other". So the search's pieces (its runs of printable ASCII other than
the space; other characters only split it) are first looked up in the vocabulary: an item
containing the search has, for each piece, an indexed word containing that piece. The words
found become one tsquery, `('weather' | 'weather,' | …) & (…)`, which the GIN index answers
without reading the items. Where the search is a single piece the words decide alone;
otherwise each item they give is checked with ILIKE. The uuid being one of the item's words,
the condition is that one index scan: no OR with the uuid's own index, which PostgreSQL could
only answer by scanning (and computing every question's words) where the search has no
trigram, as `!!!` has none.

A search under three characters, one without such a piece, or one whose pieces are each in
more than MAX_WORDS words, is an ILIKE through the pg_trgm indexes of migration 0012 (a scan
under three characters, as on SQLite).

The lookup is `LIKE`, not tsquery's prefix match (`'weath':*`) or `websearch_to_tsquery`: those
would find whole words or word starts only, and a different set of items than SQLite.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import (
    Connection,
    Text,
    and_,
    cast,
    column,
    false,
    func,
    literal,
    or_,
    select,
    table,
)
from sqlalchemy.dialects.postgresql import TSQUERY
from sqlmodel import col

from w2c_tui.db.item_search.base import (
    Search,
    SearchIndex,
    question_contains,
    scan_condition,
    uuid_contains,
)
from w2c_tui.db.tables import ItemRow

VOCABULARY = "item_search_word"
"""The table of indexed words (migration 0027)."""
VOCABULARY_TRIGGER = "item_search_word_insert"
"""The statement trigger on `item` that adds an insert's new words (migration 0027)."""
FILL_VOCABULARY = f"""
INSERT INTO {VOCABULARY} (word)
SELECT DISTINCT new_word
FROM item, unnest(tsvector_to_array(item_search_words(item.question, item.uuid))) AS new_word
WHERE item.id > :first AND NOT EXISTS (SELECT 1 FROM {VOCABULARY} WHERE word = new_word)
"""
"""What VOCABULARY_TRIGGER does, for the items after id `:first` in one statement (a large
import; db/import_items)."""
PIECE = re.compile(r"[!-~]+")
"""A piece of a search: a run of printable ASCII other than the space, characters that are
never white space and that Python and PostgreSQL lowercase alike."""
MAX_PIECE = 128
"""A longer piece is looked up by its first MAX_PIECE characters (the index's overlap)."""
MAX_WORDS = 1000
"""A piece found in more indexed words than this does not narrow the search enough to use."""
MAX_PIECES = 3
"""At most this many pieces are looked up, the longest first."""
MIN_SEARCH = 3
"""A shorter search scans, as on SQLite (its pieces are in too many words: one uuid in ten
holds any given two hex digits)."""

_vocabulary = table(VOCABULARY, column("word", Text))


def pieces(search: str) -> list[str]:
    """The distinct pieces of `search`, lowercased and cut to MAX_PIECE, longest first."""
    found = {piece.lower()[:MAX_PIECE] for piece in PIECE.findall(search)}
    return sorted(found, key=lambda piece: (-len(piece), piece))


def lexeme(word: str) -> str:
    """`word` as a quoted tsquery lexeme (quotes doubled, backslashes escaped)."""
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def tsquery(words: tuple[tuple[str, ...], ...]) -> str:
    """One of each group's words: `('a' | 'b') & ('c')`."""
    return " & ".join("(" + " | ".join(map(lexeme, group)) + ")" for group in words)


def containing(connection: Connection, piece: str) -> list[str]:
    """The indexed words that contain `piece` (MAX_WORDS + 1 at most)."""
    query = (
        select(_vocabulary.c.word)
        .where(_vocabulary.c.word.contains(piece, autoescape=True))
        .distinct()
        .limit(MAX_WORDS + 1)
    )
    return sorted(connection.execute(query).scalars())


def resolve_words(connection: Connection, search: str) -> Search:
    """`search` with the indexed words of its pieces (see the module docstring)."""
    if len(search) < MIN_SEARCH:
        return Search(search, SearchIndex.WORDS)
    groups: list[tuple[str, ...]] = []
    for piece in pieces(search):
        words = containing(connection, piece)
        if len(words) > MAX_WORDS:
            continue
        groups.append(tuple(words))
        if not words or len(groups) == MAX_PIECES:
            break
    if not groups:
        return Search(search, SearchIndex.WORDS)
    exact = PIECE.fullmatch(search) is not None and len(search) <= MAX_PIECE
    return Search(search, SearchIndex.WORDS, tuple(groups), exact and len(groups) == 1)


def words_condition(search: Search) -> Any:
    """Condition on ItemRow: the question or uuid contains `search.text` (PostgreSQL)."""
    text = search.text
    if len(text) < MIN_SEARCH:  # no index can help: one scan of the searched text
        return scan_condition(text)
    if search.words is None:  # ILIKE, through the trigram index on the whole question
        question = and_(
            col(ItemRow.question).icontains(text, autoescape=True), question_contains(text)
        )
        return or_(question, uuid_contains(text))
    if not all(search.words):  # a piece in no item
        return false()
    words = func.item_search_words(col(ItemRow.question), col(ItemRow.uuid))  # the GIN index's
    has = words.bool_op("@@")(cast(literal(tsquery(search.words)), TSQUERY))
    if search.exact:
        return has
    return and_(has, or_(question_contains(text), uuid_contains(text)))
