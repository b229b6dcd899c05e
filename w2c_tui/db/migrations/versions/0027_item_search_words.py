"""A word index for item search on PostgreSQL (docs/decisions.md, "Search"; db/item_search).

PostgreSQL only (SQLite keeps its FTS5 trigram table of migration 0012; nothing happens there):

- `item_search_words(question, uuid)`: the tsvector of the runs of characters between white
  space in the lowercased first 20,000 characters of a question and in its uuid, a run longer
  than 256 characters as overlapping pieces of 256 starting every 128 (a lexeme holds at most
  2,047 bytes), without positions, in PL/pgSQL (which keeps its plan; a SQL function here is
  planned again for every inserted row); a GIN index on it, `item_search_words_gin`, with a
  small pending list. Its COST tells the planner that it is dear (~20 µs a call): computed for
  every row of a scan it would cost seconds.
- `item_search_word`: every indexed word once, with a trigram index (where pg_trgm is
  installed, migration 0012) for the lookup of the words containing a search's piece; filled
  from the items already stored and kept by triggers on `item` (a statement trigger on insert,
  a row trigger on an update of `question` or `uuid`). Words of deleted items stay: the list
  only has to hold every word indexed, and an extra word costs nothing but a lexeme no item
  has. There is no unique constraint, so that two imports at once never wait on each other's
  new words; they may then both add one, which the lookup's DISTINCT absorbs.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

CHARS = 20_000  # frozen here: db/item_search.INDEXED_CHARS says the same
PIECE = 256
STEP = 128  # frozen here: db/item_search/words.MAX_PIECE says the same
PENDING_KB = 256
"""GIN gathers new entries in a pending list that every search reads through until it is
merged (4 MB by default: ~3 ms a search after an import); 256 kB keeps that under 1 ms and
costs an import next to nothing more."""

WORDS_FUNCTION = f"""
CREATE FUNCTION item_search_words(question text, uuid text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$ BEGIN
  RETURN array_to_tsvector(ARRAY(
    SELECT substr(word, start, {PIECE})
    FROM regexp_split_to_table(lower(substr(question, 1, {CHARS}) || ' ' || uuid),
                               '[[:space:]]+') AS word,
         generate_series(1, greatest(length(word) - {STEP}, 1), {STEP}) AS start
    WHERE word <> ''));
END $$
"""
NEW_WORDS = """
  INSERT INTO item_search_word (word)
  SELECT DISTINCT new_word FROM {source}
  WHERE NOT EXISTS (SELECT 1 FROM item_search_word WHERE word = new_word)
"""
WORDS = "unnest(tsvector_to_array(item_search_words({row}.question, {row}.uuid))) new_word"
INSERTED = "new_items, " + WORDS.format(row="new_items")
UPDATED = WORDS.format(row="NEW")
TRIGGER_FUNCTIONS = (
    "CREATE FUNCTION item_search_word_inserted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
    f"{NEW_WORDS.format(source=INSERTED)}; RETURN NULL; END $$",
    "CREATE FUNCTION item_search_word_updated() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
    f"{NEW_WORDS.format(source=UPDATED)}; RETURN NULL; END $$",
)
TRIGGERS = (
    "CREATE TRIGGER item_search_word_insert AFTER INSERT ON item "
    "REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT "
    "EXECUTE FUNCTION item_search_word_inserted()",
    "CREATE TRIGGER item_search_word_update AFTER UPDATE OF question, uuid ON item FOR EACH ROW "
    "WHEN (OLD.question IS DISTINCT FROM NEW.question OR OLD.uuid IS DISTINCT FROM NEW.uuid) "
    "EXECUTE FUNCTION item_search_word_updated()",
)


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.execute(WORDS_FUNCTION)
    op.execute("CREATE TABLE item_search_word (word text NOT NULL)")
    op.execute(
        "INSERT INTO item_search_word (word) "
        "SELECT DISTINCT unnest(tsvector_to_array(item_search_words(question, uuid))) FROM item"
    )
    op.execute("CREATE INDEX item_search_word_key ON item_search_word (word)")
    trigram = bind.execute(sa.text("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'"))
    if trigram.first() is not None:
        op.execute(
            "CREATE INDEX item_search_word_trgm ON item_search_word USING gin (word gin_trgm_ops)"
        )
    op.execute(
        "CREATE INDEX item_search_words_gin ON item USING gin (item_search_words(question, uuid))"
        f" WITH (gin_pending_list_limit = {PENDING_KB})"
    )
    for statement in (*TRIGGER_FUNCTIONS, *TRIGGERS):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS item_search_word_update ON item")
    op.execute("DROP TRIGGER IF EXISTS item_search_word_insert ON item")
    op.execute("DROP FUNCTION IF EXISTS item_search_word_updated()")
    op.execute("DROP FUNCTION IF EXISTS item_search_word_inserted()")
    op.execute("DROP INDEX IF EXISTS item_search_words_gin")
    op.execute("DROP TABLE IF EXISTS item_search_word")
    op.execute("DROP FUNCTION IF EXISTS item_search_words(text, text)")
