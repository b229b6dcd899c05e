"""The item-QA checklist and notes move into the one label store: every `qa_flag` event
becomes an answer of the built-in schema `when2call-item-qa` to the flag's question (its code):
"yes" when the flag was switched on, a withdrawn answer (NULL) when it was switched off; every
`note` row an answer to its question `note` (an empty text withdraws). Each annotator's events on
an item and question keep their order and time as a supersedes chain whose last row is current.
`qa_flag` and `note` are dropped; the downgrade writes the events back.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

SCHEMA = "when2call-item-qa"
NOTE = "note"
BEHAVIOUR = "behaviour"

_meta = sa.MetaData()
LABEL = sa.Table(
    "label",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("rater_id", sa.Integer),
    sa.Column("item_id", sa.Integer),
    sa.Column("schema_name", sa.String),
    sa.Column("question", sa.String),
    sa.Column("value", sa.Text),
    sa.Column("source", sa.String),
    sa.Column("supersedes_id", sa.Integer),
    sa.Column("is_current", sa.Boolean),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
FLAG = sa.Table(
    "qa_flag",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("item_id", sa.Integer),
    sa.Column("rater_id", sa.Integer),
    sa.Column("code", sa.String),
    sa.Column("active", sa.Boolean),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
NOTES = sa.Table(
    "note",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("item_id", sa.Integer),
    sa.Column("rater_id", sa.Integer),
    sa.Column("text", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)


def _events() -> list[tuple[Any, ...]]:
    """(rater, item, question, value, created_at) of every flag and note event, each table's
    in its own order (an item's flags and its note are separate questions)."""
    bind = op.get_bind()
    out: list[tuple[Any, ...]] = []
    for row in bind.execute(sa.select(FLAG).order_by(FLAG.c.id)).mappings():
        value = "yes" if row["active"] else None
        out.append((row["rater_id"], row["item_id"], row["code"], value, row["created_at"]))
    for row in bind.execute(sa.select(NOTES).order_by(NOTES.c.id)).mappings():
        text = row["text"] or None
        out.append((row["rater_id"], row["item_id"], NOTE, text, row["created_at"]))
    return out


def upgrade() -> None:
    bind = op.get_bind()
    latest: dict[tuple[Any, ...], int] = {}
    for rater, item, question, value, created in _events():
        key = (rater, item, question)
        previous = latest.get(key)
        if previous is not None:
            bind.execute(LABEL.update().where(LABEL.c.id == previous).values(is_current=False))
        inserted = bind.execute(
            LABEL.insert().values(
                rater_id=rater,
                item_id=item,
                schema_name=SCHEMA,
                question=question,
                value=value,
                source="tui",
                supersedes_id=previous,
                is_current=True,
                created_at=created,
            )
        )
        key_id = inserted.inserted_primary_key
        assert key_id is not None
        latest[key] = int(key_id[0])
    op.drop_table("qa_flag")
    op.drop_table("note")


def downgrade() -> None:
    op.create_table(
        "qa_flag",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("code", sa.String, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_qa_flag_item_rater", "qa_flag", ["item_id", "rater_id"])
    op.create_table(
        "note",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_note_item_rater", "note", ["item_id", "rater_id"])
    bind = op.get_bind()
    answers = (LABEL.c.schema_name == SCHEMA) & (LABEL.c.question != BEHAVIOUR)
    rows = bind.execute(sa.select(LABEL).where(answers).order_by(LABEL.c.id)).mappings().all()
    for row in rows:
        if row["question"] == NOTE:
            bind.execute(
                NOTES.insert().values(
                    item_id=row["item_id"],
                    rater_id=row["rater_id"],
                    text=row["value"] or "",
                    created_at=row["created_at"],
                )
            )
        else:
            bind.execute(
                FLAG.insert().values(
                    item_id=row["item_id"],
                    rater_id=row["rater_id"],
                    code=row["question"],
                    active=row["value"] == "yes",
                    created_at=row["created_at"],
                )
            )
    bind.execute(LABEL.delete().where(answers))
