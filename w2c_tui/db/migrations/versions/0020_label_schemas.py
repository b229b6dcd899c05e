"""Label schemas: users' schemas (`label_schema`) and the one store of every schema's answers
(`label`), one current answer per rater, unit, schema and question (a partial unique index, as
for `verdict`), earlier answers kept as superseded rows.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "label_schema",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("toml", sa.Text, nullable=False),
        sa.Column("json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "label",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("response_id", sa.Integer, sa.ForeignKey("response.id"), nullable=True),
        sa.Column("schema_name", sa.String, nullable=False),
        sa.Column("question", sa.String, nullable=False),
        sa.Column("value", sa.Text, nullable=True),
        sa.Column("source", sa.String, nullable=True),
        sa.Column("seen", sa.String, nullable=True),
        sa.Column("guideline_id", sa.Integer, sa.ForeignKey("guideline.id"), nullable=True),
        sa.Column("supersedes_id", sa.Integer, sa.ForeignKey("label.id"), nullable=True),
        sa.Column("is_current", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_label_schema_current", "label", ["schema_name", "is_current"])
    op.create_index("ix_label_item", "label", ["item_id"])
    op.create_index(
        "uq_label_current",
        "label",
        ["rater_id", "item_id", sa.text("coalesce(response_id, 0)"), "schema_name", "question"],
        unique=True,
        sqlite_where=sa.text("is_current"),
        postgresql_where=sa.text("is_current"),
    )


def downgrade() -> None:
    op.drop_table("label")
    op.drop_table("label_schema")
