"""An index for the number-of-tools filter (it scanned the whole item table).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_item_dataset_tools", "item", ["dataset_id", "n_tools", "position"])


def downgrade() -> None:
    op.drop_index("ix_item_dataset_tools", table_name="item")
