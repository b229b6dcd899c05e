"""A frozen dev/test split per dataset (`w2c split`, issue 19): the `data_split` table.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "data_split",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("test_share", sa.Float, nullable=False),
        sa.Column("units_json", sa.Text, nullable=False),
        sa.Column("test_uses", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("dataset_id", name="uq_data_split_dataset"),
    )


def downgrade() -> None:
    op.drop_table("data_split")
