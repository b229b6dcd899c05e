"""Item search through a trigram index (docs/decisions.md, "Search").

- SQLite: `item_search`, a contentless FTS5 table (trigram tokenizer, case folded) over the
  first 20,000 characters of each question and the uuid, filled from the items already stored
  and kept in step by triggers on `item` (insert, update of question/uuid, delete). Skipped
  where this SQLite lacks FTS5's trigram tokenizer (searches then scan, as before).
  A later migration that rebuilds `item` (SQLite batch mode) must recreate the triggers.
- PostgreSQL: the pg_trgm extension (trusted since PostgreSQL 13: a database owner may install
  it) and GIN trigram indexes on item.question and item.uuid, which ILIKE uses. Where the
  extension cannot be installed the migration goes on without them.

Revision ID: 0012
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0009"
branch_labels = None
depends_on = None

CHARS = 20_000  # frozen here: db/item_search.INDEXED_CHARS says the same
TOKENIZER = "trigram case_sensitive 0"
COLUMNS = f"substr(question, 1, {CHARS}), uuid"


def _values(row: str) -> str:
    return f"substr({row}.question, 1, {CHARS}), {row}.uuid"


SQLITE_UP = (
    "CREATE VIRTUAL TABLE item_search USING fts5(question, uuid, content='', "
    f"tokenize='{TOKENIZER}')",
    f"INSERT INTO item_search(rowid, question, uuid) SELECT id, {COLUMNS} FROM item",
    "CREATE TRIGGER item_search_insert AFTER INSERT ON item BEGIN "
    f"INSERT INTO item_search(rowid, question, uuid) VALUES (new.id, {_values('new')}); END",
    "CREATE TRIGGER item_search_delete AFTER DELETE ON item BEGIN "
    "INSERT INTO item_search(item_search, rowid, question, uuid) "
    f"VALUES ('delete', old.id, {_values('old')}); END",
    "CREATE TRIGGER item_search_update AFTER UPDATE OF question, uuid ON item BEGIN "
    "INSERT INTO item_search(item_search, rowid, question, uuid) "
    f"VALUES ('delete', old.id, {_values('old')}); "
    f"INSERT INTO item_search(rowid, question, uuid) VALUES (new.id, {_values('new')}); END",
)
SQLITE_DOWN = (
    "DROP TRIGGER IF EXISTS item_search_update",
    "DROP TRIGGER IF EXISTS item_search_delete",
    "DROP TRIGGER IF EXISTS item_search_insert",
    "DROP TABLE IF EXISTS item_search",
)
PG_INDEXES = (
    "CREATE INDEX ix_item_question_trgm ON item USING gin (question gin_trgm_ops)",
    "CREATE INDEX ix_item_uuid_trgm ON item USING gin (uuid gin_trgm_ops)",
)


def _trigram_tokenizer() -> bool:
    try:
        with sqlite3.connect(":memory:") as probe:
            probe.execute(
                "CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram case_sensitive 0')"
            )
    except sqlite3.Error:
        return False
    return True


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        if _trigram_tokenizer():
            for statement in SQLITE_UP:
                op.execute(statement)
    elif bind.dialect.name == "postgresql":
        try:
            with bind.begin_nested():
                bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
        except sa.exc.DBAPIError:
            return  # not allowed here: searches scan
        for statement in PG_INDEXES:
            op.execute(statement)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for statement in SQLITE_DOWN:
            op.execute(statement)
    elif bind.dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_item_uuid_trgm")
        op.execute("DROP INDEX IF EXISTS ix_item_question_trgm")
