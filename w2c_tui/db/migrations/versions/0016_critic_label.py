"""CriticTool labels: `critic_label`, one current row per rater and unit (a partial unique
index, as for `verdict`), earlier answers kept as superseded rows.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
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


def downgrade() -> None:
    op.drop_table("critic_label")
