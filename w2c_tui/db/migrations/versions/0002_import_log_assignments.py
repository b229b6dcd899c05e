"""Import log, dataset descriptions, and the assignment table for the team workflow.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dataset") as batch:
        batch.add_column(sa.Column("description", sa.String))
    op.create_table(
        "import_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("path", sa.String, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("sha256", sa.String, nullable=False),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id")),
        sa.Column("report_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("rater_id", "item_id", name="uq_assignment"),
    )


def downgrade() -> None:
    op.drop_table("assignment")
    op.drop_table("import_log")
    with op.batch_alter_table("dataset") as batch:
        batch.drop_column("description")
