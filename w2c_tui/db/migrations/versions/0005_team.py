"""Team workflow: one current verdict per rater and unit, assignments, guidelines, reveal state.

- `verdict`: a unique partial index makes "one current verdict per (rater, item, target
  model, response)" a rule of the database. Duplicates that concurrent writers left behind are
  repaired first: the newest row stays current, the others become history (nothing deleted).
  Two columns: `seen` (what the annotator had seen of the unit when labelling) and
  `guideline_id` (the guideline version in force).
- `item.shuffle_key`: a fixed pseudo-random number per item, from its uuid, for blind ordering.
- `assignment_plan`, `assignment` (rebuilt: units may be responses, with a queue order),
  `guideline`, `guideline_seen`.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

UNIT = (
    "rater_id",
    "item_id",
    sa.func.coalesce(sa.text("target_model_id"), 0),
    sa.func.coalesce(sa.text("response_id"), 0),
)


def _shuffle_key(uuid: str) -> int:
    # frozen here on purpose: domain.team.shuffle_key computes the same for new items
    return int.from_bytes(hashlib.sha256(uuid.encode()).digest()[:4], "big") & 0x7FFFFFFF


def upgrade() -> None:
    bind = op.get_bind()
    with op.batch_alter_table("item") as batch:
        batch.add_column(
            sa.Column("shuffle_key", sa.BigInteger, nullable=False, server_default="0")
        )
    item = sa.table("item", sa.column("id", sa.Integer), sa.column("uuid", sa.String))
    keyed = sa.table("item", sa.column("id", sa.Integer), sa.column("shuffle_key", sa.BigInteger))
    rows = bind.execute(sa.select(item.c.id, item.c.uuid)).all()
    if rows:
        bind.execute(
            sa.update(keyed)
            .where(keyed.c.id == sa.bindparam("item_id"))
            .values(shuffle_key=sa.bindparam("key")),
            [{"item_id": i, "key": _shuffle_key(u)} for i, u in rows],
        )

    op.create_table(
        "guideline",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("sha256", sa.String, nullable=False),
        sa.Column("source_path", sa.String),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("dataset_id", "version", name="uq_guideline_version"),
    )
    op.create_table(
        "guideline_seen",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("guideline_id", sa.Integer, sa.ForeignKey("guideline.id"), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("rater_id", "guideline_id", name="uq_guideline_seen"),
    )

    verdict = sa.table(
        "verdict",
        sa.column("id", sa.Integer),
        sa.column("rater_id", sa.Integer),
        sa.column("item_id", sa.Integer),
        sa.column("target_model_id", sa.Integer),
        sa.column("response_id", sa.Integer),
        sa.column("is_current", sa.Boolean),
    )
    model = sa.func.coalesce(verdict.c.target_model_id, 0)
    response = sa.func.coalesce(verdict.c.response_id, 0)
    duplicated = bind.execute(
        sa.select(verdict.c.rater_id, verdict.c.item_id, model, response, sa.func.max(verdict.c.id))
        .where(verdict.c.is_current.is_(sa.true()))
        .group_by(verdict.c.rater_id, verdict.c.item_id, model, response)
        .having(sa.func.count() > 1)
    ).all()
    for rater_id, item_id, model_id, response_id, newest in duplicated:
        bind.execute(
            sa.update(verdict)
            .where(
                verdict.c.is_current.is_(sa.true()),
                verdict.c.rater_id == rater_id,
                verdict.c.item_id == item_id,
                model == model_id,
                response == response_id,
                verdict.c.id != newest,
            )
            .values(is_current=sa.false())
        )

    # Added in place, not by rebuilding the table: SQLite's DROP TABLE of a rebuild would check
    # the foreign keys that point at verdict rows (run results) and fail. SQLite can add a
    # column with REFERENCES in place; Alembic only knows to add it as a separate constraint.
    op.add_column("verdict", sa.Column("seen", sa.String))
    if bind.dialect.name == "sqlite":
        op.execute("ALTER TABLE verdict ADD COLUMN guideline_id INTEGER REFERENCES guideline (id)")
    else:
        op.add_column(
            "verdict",
            sa.Column(
                "guideline_id",
                sa.Integer,
                sa.ForeignKey("guideline.id", name="fk_verdict_guideline"),
            ),
        )
    op.create_index(
        "uq_verdict_current",
        "verdict",
        list(UNIT),
        unique=True,
        sqlite_where=sa.text("is_current"),
        postgresql_where=sa.text("is_current"),
    )

    op.drop_table("assignment")
    op.create_table(
        "assignment_plan",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("unit_kind", sa.String, nullable=False),
        sa.Column("overlap", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("config_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("dataset_id", "unit_kind", name="uq_assignment_plan"),
    )
    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("plan_id", sa.Integer, sa.ForeignKey("assignment_plan.id"), nullable=False),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("target_model_id", sa.Integer, sa.ForeignKey("target_model.id")),
        sa.Column("response_id", sa.Integer, sa.ForeignKey("response.id")),
        sa.Column("order_key", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "uq_assignment_unit",
        "assignment",
        ["rater_id", "item_id", sa.func.coalesce(sa.text("response_id"), 0)],
        unique=True,
    )
    op.create_index("ix_assignment_plan_rater", "assignment", ["plan_id", "rater_id", "order_key"])
    op.create_index("ix_assignment_item", "assignment", ["item_id"])


def downgrade() -> None:
    op.drop_table("assignment")
    op.drop_table("assignment_plan")
    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("rater_id", "item_id", name="uq_assignment"),
    )
    op.drop_index("uq_verdict_current", table_name="verdict")
    with op.batch_alter_table("verdict") as batch:
        batch.drop_column("guideline_id")
        batch.drop_column("seen")
    op.drop_table("guideline_seen")
    op.drop_table("guideline")
    with op.batch_alter_table("item") as batch:
        batch.drop_column("shuffle_key")
