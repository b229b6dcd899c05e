"""What was logged to MLflow (issue 20): the `tracking_log` table.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tracking_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("subject", sa.String, nullable=False),
        sa.Column("ref", sa.String, nullable=False),
        sa.Column("dataset", sa.String, nullable=False),
        sa.Column("run_id", sa.Integer, nullable=True),
        sa.Column("tracking_uri", sa.Text, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("experiment_id", sa.String, nullable=True),
        sa.Column("mlflow_run_id", sa.String, nullable=True),
        sa.Column("url", sa.Text, nullable=True),
        sa.Column("digest", sa.String, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("logged_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("subject", "ref", "tracking_uri", name="uq_tracking_log_subject"),
    )
    op.create_index("ix_tracking_log_run_id", "tracking_log", ["run_id"])


def downgrade() -> None:
    op.drop_index("ix_tracking_log_run_id", table_name="tracking_log")
    op.drop_table("tracking_log")
