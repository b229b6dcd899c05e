"""Where each annotator left off in each dataset: `review_place` (the review screen reopens
there).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "review_place",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("mode", sa.String, nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=True),
        sa.Column("queue", sa.Boolean, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("rater_id", "dataset_id", name="uq_review_place"),
    )


def downgrade() -> None:
    op.drop_table("review_place")
