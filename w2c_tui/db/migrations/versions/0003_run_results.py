"""Run results (one row per run, item and sample: the resume checkpoint) and run heartbeats.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("run") as batch:
        batch.add_column(sa.Column("heartbeat_at", sa.DateTime(timezone=True)))
        batch.add_column(sa.Column("log_path", sa.String))
    op.create_table(
        "run_result",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("sample_index", sa.Integer, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("response_id", sa.Integer, sa.ForeignKey("response.id")),
        sa.Column("verdict_id", sa.Integer, sa.ForeignKey("verdict.id")),
        sa.Column("retries", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("run_id", "item_id", "sample_index", name="uq_run_result"),
    )


def downgrade() -> None:
    op.drop_table("run_result")
    with op.batch_alter_table("run") as batch:
        batch.drop_column("log_path")
        batch.drop_column("heartbeat_at")
