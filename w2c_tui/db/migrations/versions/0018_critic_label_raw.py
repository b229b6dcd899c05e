"""critic_label.raw: what a CriticTool judge replied (its label's evidence; NULL for people).

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("critic_label") as batch:
        batch.add_column(sa.Column("raw", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("critic_label") as batch:
        batch.drop_column("raw")
