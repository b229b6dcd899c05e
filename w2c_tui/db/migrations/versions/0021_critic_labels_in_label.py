"""CriticTool labels move into the one label store: every `critic_label` row becomes answers of
the built-in schema `critictool` in `label` (one row per question it set or changed), with its
history, `seen`, source and the judge's reply (`label.raw`, new); `critic_label` is dropped.

A `critic_label` row is one answer set written at once. Its answers become `label` rows that
share its `created_at` (the store reads rows of one unit with one timestamp as one write, which
is how `CriticLabelStore.history` and `undo` see answer sets), each superseding the question's
previous answer. A person's row writes the questions it changed (a cleared answer is a
withdrawn row); a judge run's row (`source` "run N") writes every question it or the unit's
previous reading answered, as the new writer does, so each run keeps its whole reading; a
reading that answered nothing keeps its reply on a withdrawn `error` row. The downgrade replays
the answer sets back into `critic_label`.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

SCHEMA = "critictool"
ORDER = (
    "error",
    "category",
    "expected_policy",
    "critique_right",
    "tool_right",
    "args_right",
    "observed_policy",
    "note",
)
"""The questions in the order the label form asks them, the note last."""

_meta = sa.MetaData()
LABEL = sa.Table(
    "label",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("rater_id", sa.Integer),
    sa.Column("item_id", sa.Integer),
    sa.Column("response_id", sa.Integer),
    sa.Column("schema_name", sa.String),
    sa.Column("question", sa.String),
    sa.Column("value", sa.Text),
    sa.Column("source", sa.String),
    sa.Column("seen", sa.String),
    sa.Column("raw", sa.Text),
    sa.Column("supersedes_id", sa.Integer),
    sa.Column("is_current", sa.Boolean),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
CRITIC = sa.Table(
    "critic_label",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("rater_id", sa.Integer),
    sa.Column("item_id", sa.Integer),
    sa.Column("response_id", sa.Integer),
    sa.Column("answers_json", sa.Text),
    sa.Column("source", sa.String),
    sa.Column("seen", sa.String),
    sa.Column("raw", sa.Text),
    sa.Column("supersedes_id", sa.Integer),
    sa.Column("is_current", sa.Boolean),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)


def _answers(text: str) -> dict[str, str]:
    data = json.loads(text)
    return {key: str(value) for key, value in data.items() if value is not None}


def _new_id(result: Any) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _create_critic_label() -> None:
    op.create_table(
        "critic_label",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("response_id", sa.Integer, sa.ForeignKey("response.id"), nullable=True),
        sa.Column("answers_json", sa.Text, nullable=False),
        sa.Column("source", sa.String, nullable=True),
        sa.Column("seen", sa.String, nullable=True),
        sa.Column("supersedes_id", sa.Integer, sa.ForeignKey("critic_label.id"), nullable=True),
        sa.Column("is_current", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("raw", sa.Text, nullable=True),
    )
    op.create_index("ix_critic_label_item", "critic_label", ["item_id", "is_current"])
    op.create_index(
        "uq_critic_label_current",
        "critic_label",
        ["rater_id", "item_id", sa.text("coalesce(response_id, 0)")],
        unique=True,
        sqlite_where=sa.text("is_current"),
        postgresql_where=sa.text("is_current"),
    )


def upgrade() -> None:
    with op.batch_alter_table("label") as batch:
        batch.add_column(sa.Column("raw", sa.Text(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.select(CRITIC).order_by(CRITIC.c.id)).mappings().all()
    # per unit: each question's latest label row (id, value); which units end current
    latest: dict[tuple[Any, ...], dict[str, tuple[int, str | None]]] = defaultdict(dict)
    answers: dict[tuple[Any, ...], dict[str, str]] = defaultdict(dict)
    current_unit: dict[tuple[Any, ...], bool] = {}
    for row in rows:
        unit = (row["rater_id"], row["item_id"], row["response_id"])
        before, after = answers[unit], _answers(row["answers_json"])
        reading = (row["source"] or "").startswith("run ")
        asked = [q for q in ORDER if q in before or q in after] + sorted(
            (set(before) | set(after)) - set(ORDER)
        )
        if not reading:
            asked = [q for q in asked if before.get(q) != after.get(q)]
        elif not asked:
            asked = ["error"]  # a reading that answered nothing keeps its reply
        for question in asked:
            previous = latest[unit].get(question)
            inserted = bind.execute(
                LABEL.insert().values(
                    rater_id=row["rater_id"],
                    item_id=row["item_id"],
                    response_id=row["response_id"],
                    schema_name=SCHEMA,
                    question=question,
                    value=after.get(question),
                    source=row["source"],
                    seen=row["seen"],
                    raw=row["raw"],
                    supersedes_id=previous[0] if previous else None,
                    is_current=False,
                    created_at=row["created_at"],
                )
            )
            latest[unit][question] = (_new_id(inserted), after.get(question))
        answers[unit] = after
        current_unit[unit] = bool(row["is_current"])
    ids = [
        label_id
        for unit, questions in latest.items()
        if current_unit[unit]
        for label_id, _ in questions.values()
    ]
    for start in range(0, len(ids), 500):
        bind.execute(
            LABEL.update().where(LABEL.c.id.in_(ids[start : start + 500])).values(is_current=True)
        )
    op.drop_table("critic_label")


def downgrade() -> None:
    _create_critic_label()
    bind = op.get_bind()
    rows = (
        bind.execute(
            sa.select(LABEL)
            .where(LABEL.c.schema_name == SCHEMA)
            .order_by(LABEL.c.created_at, LABEL.c.id)
        )
        .mappings()
        .all()
    )
    writes: dict[tuple[Any, ...], list[Any]] = defaultdict(list)
    for row in rows:
        unit = (row["rater_id"], row["item_id"], row["response_id"])
        if writes[unit] and writes[unit][-1][0]["created_at"] == row["created_at"]:
            writes[unit][-1].append(row)
        else:
            writes[unit].append([row])
    for unit, batches in writes.items():
        answers: dict[str, str] = {}
        previous = None
        for index, batch in enumerate(batches):
            for row in batch:
                if row["value"] is None:
                    answers.pop(row["question"], None)
                else:
                    answers[row["question"]] = row["value"]
            first = batch[0]
            inserted = bind.execute(
                CRITIC.insert().values(
                    rater_id=unit[0],
                    item_id=unit[1],
                    response_id=unit[2],
                    answers_json=json.dumps(answers, sort_keys=True),
                    source=first["source"],
                    seen=first["seen"],
                    raw=next((r["raw"] for r in batch if r["raw"] is not None), None),
                    supersedes_id=previous,
                    is_current=index == len(batches) - 1 and any(r["is_current"] for r in batch),
                    created_at=first["created_at"],
                )
            )
            previous = _new_id(inserted)
    bind.execute(LABEL.delete().where(LABEL.c.schema_name == SCHEMA))
    op.drop_index("uq_label_current", table_name="label")  # SQLite's rebuild would lose it
    # SQLite rebuilds the table; dropping the old one would break the copy's supersedes links
    # to it (other schemas' answers), so they are lifted for the rebuild and put back after it
    links = bind.execute(
        sa.text("SELECT id, supersedes_id FROM label WHERE supersedes_id IS NOT NULL")
    ).all()
    op.execute("UPDATE label SET supersedes_id = NULL WHERE supersedes_id IS NOT NULL")
    with op.batch_alter_table("label") as batch_op:
        batch_op.drop_column("raw")
    if links:
        bind.execute(
            sa.text("UPDATE label SET supersedes_id = :s WHERE id = :i"),
            [{"i": i, "s": s} for i, s in links],
        )
    op.create_index(
        "uq_label_current",
        "label",
        ["rater_id", "item_id", sa.text("coalesce(response_id, 0)"), "schema_name", "question"],
        unique=True,
        sqlite_where=sa.text("is_current"),
        postgresql_where=sa.text("is_current"),
    )
