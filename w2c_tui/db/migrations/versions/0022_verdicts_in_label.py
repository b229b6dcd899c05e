"""When2Call labels move into the one label store: every `verdict` row (people's labels with
their history, `seen` and guideline version, adjudications, judges' and log-prob scorers'
readings with their status, scores, reply and run) becomes a `label` row answering the question
`behaviour` of a built-in schema: `when2call-item-qa` where the unit is the item alone,
`when2call-behaviour` where it is a model's response or a model's reading of the item. `label`
gains the columns a reading needs (`target_model_id`, `status`, `scores_json`, `run_id`), its
"one current answer" index counts the model, and `run_result.verdict_id` becomes `label_id`.

Every verdict keeps its id as a label (the label rows already there move past the largest id in
use), its order and its supersedes chain. The downgrade writes the When2Call rows back into
`verdict` with the same ids and removes them from `label`.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

ITEM_SCHEMA = "when2call-item-qa"
RESPONSE_SCHEMA = "when2call-behaviour"
QUESTION = "behaviour"
SHARED = (
    "rater_id, item_id, target_model_id, response_id, status, raw, scores_json, run_id, "
    "source, is_current, created_at, seen, guideline_id"
)
"""The columns `verdict` and `label` share under the same name."""


def _unique_index(with_model: bool) -> None:
    unit = ["rater_id", "item_id"]
    if with_model:
        unit.append(sa.text("coalesce(target_model_id, 0)"))  # type: ignore[arg-type]
    op.create_index(
        "uq_label_current",
        "label",
        [*unit, sa.text("coalesce(response_id, 0)"), "schema_name", "question"],
        unique=True,
        sqlite_where=sa.text("is_current"),
        postgresql_where=sa.text("is_current"),
    )


def _add_reference(table: str, column: str, target: str) -> None:
    """A nullable foreign-key column added in place (SQLite can, without rebuilding the table
    that other tables point at)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER REFERENCES {target} (id)")
    else:
        op.add_column(table, sa.Column(column, sa.Integer, sa.ForeignKey(f"{target}.id")))


def _restart_ids(table: str) -> None:
    """PostgreSQL's id sequence past ids inserted by hand."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)"
        )


def upgrade() -> None:
    bind = op.get_bind()
    _add_reference("label", "target_model_id", "target_model")
    _add_reference("label", "run_id", "run")
    op.add_column("label", sa.Column("status", sa.String, nullable=True))
    op.add_column("label", sa.Column("scores_json", sa.Text, nullable=True))
    op.drop_index("uq_label_current", table_name="label")
    _unique_index(with_model=True)
    op.create_index("ix_label_item_rater_current", "label", ["item_id", "rater_id", "is_current"])
    op.create_index("ix_label_rater_current", "label", ["rater_id", "is_current"])
    op.create_index("ix_label_response", "label", ["response_id"])

    # the label rows already there move past every id in use, so the verdicts keep theirs
    shift = int(
        bind.execute(
            sa.text(
                "SELECT max(n) FROM (SELECT coalesce(max(id), 0) AS n FROM label "
                "UNION ALL SELECT coalesce(max(id), 0) FROM verdict) AS ids"
            )
        ).scalar()
        or 0
    )
    op.execute(f"UPDATE label SET id = id + {shift}, supersedes_id = supersedes_id + {shift}")
    op.execute(
        f"INSERT INTO label (id, schema_name, question, value, supersedes_id, {SHARED}) "
        f"SELECT id, CASE WHEN target_model_id IS NULL AND response_id IS NULL "
        f"THEN '{ITEM_SCHEMA}' ELSE '{RESPONSE_SCHEMA}' END, '{QUESTION}', label, "
        f"supersedes_id, {SHARED} FROM verdict ORDER BY id"
    )
    _restart_ids("label")

    _add_reference("run_result", "label_id", "label")
    op.execute("UPDATE run_result SET label_id = verdict_id")
    with op.batch_alter_table("run_result") as batch:
        batch.drop_column("verdict_id")
    op.drop_table("verdict")


def _create_verdict() -> None:
    op.create_table(
        "verdict",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("target_model_id", sa.Integer, sa.ForeignKey("target_model.id")),
        sa.Column("response_id", sa.Integer, sa.ForeignKey("response.id")),
        sa.Column("label", sa.String),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("raw", sa.Text),
        sa.Column("scores_json", sa.Text, nullable=False),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id")),
        sa.Column("source", sa.String),
        sa.Column("supersedes_id", sa.Integer, sa.ForeignKey("verdict.id")),
        sa.Column("is_current", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.String),
        sa.Column(
            "guideline_id",
            sa.Integer,
            sa.ForeignKey("guideline.id", name="fk_verdict_guideline"),
        ),
    )
    op.create_index(
        "ix_verdict_item_rater_current", "verdict", ["item_id", "rater_id", "is_current"]
    )
    op.create_index("ix_verdict_rater_current", "verdict", ["rater_id", "is_current"])
    op.create_index("ix_verdict_response", "verdict", ["response_id"])
    op.create_index(
        "uq_verdict_current",
        "verdict",
        [
            "rater_id",
            "item_id",
            sa.text("coalesce(target_model_id, 0)"),
            sa.text("coalesce(response_id, 0)"),
        ],
        unique=True,
        sqlite_where=sa.text("is_current"),
        postgresql_where=sa.text("is_current"),
    )


def _drop_label_columns(*columns: str) -> None:
    """Drop columns of `label`. SQLite rebuilds the table to drop a foreign-key column, and
    dropping the old table would break the copy's `supersedes_id` links to it: the links are
    lifted for the rebuild and put back after it."""
    bind = op.get_bind()
    links = bind.execute(
        sa.text("SELECT id, supersedes_id FROM label WHERE supersedes_id IS NOT NULL")
    ).all()
    op.execute("UPDATE label SET supersedes_id = NULL WHERE supersedes_id IS NOT NULL")
    with op.batch_alter_table("label") as batch:
        for column in columns:
            batch.drop_column(column)
    if links:
        bind.execute(
            sa.text("UPDATE label SET supersedes_id = :s WHERE id = :i"),
            [{"i": i, "s": s} for i, s in links],
        )


def downgrade() -> None:
    _create_verdict()
    where = f"schema_name IN ('{ITEM_SCHEMA}', '{RESPONSE_SCHEMA}') AND question = '{QUESTION}'"
    op.execute(
        f"INSERT INTO verdict (id, label, supersedes_id, {SHARED}) "
        f"SELECT id, value, supersedes_id, rater_id, item_id, target_model_id, response_id, "
        f"coalesce(status, 'ok'), raw, coalesce(scores_json, '{{}}'), run_id, source, "
        f"is_current, created_at, seen, guideline_id FROM label WHERE {where} ORDER BY id"
    )
    _restart_ids("verdict")
    _add_reference("run_result", "verdict_id", "verdict")
    op.execute("UPDATE run_result SET verdict_id = label_id")
    with op.batch_alter_table("run_result") as batch:
        batch.drop_column("label_id")
    op.execute(f"DELETE FROM label WHERE {where}")
    op.drop_index("ix_label_response", table_name="label")
    op.drop_index("ix_label_rater_current", table_name="label")
    op.drop_index("ix_label_item_rater_current", table_name="label")
    op.drop_index("uq_label_current", table_name="label")  # SQLite's rebuild would lose it
    _drop_label_columns("scores_json", "status", "run_id", "target_model_id")
    _unique_index(with_model=False)
