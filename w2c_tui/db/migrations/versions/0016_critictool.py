"""CriticTool: imported files whole, their samples, and models' predictions.

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
        "critic_file",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("source_path", sa.String, nullable=False),
        sa.Column("sha256", sa.String, nullable=False),
        sa.Column("kind_json", sa.Text, nullable=False),
        sa.Column("model", sa.String, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("dataset_id", "sha256", name="uq_critic_file"),
    )
    op.create_table(
        "critic_sample",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("sample_id", sa.String, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("source", sa.String, nullable=False),
        sa.Column("error_type", sa.String, nullable=True),
        sa.Column("item_sha256", sa.String, nullable=False),
        sa.Column("raw_json", sa.Text, nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.UniqueConstraint("dataset_id", "sample_id", name="uq_critic_sample"),
    )
    op.create_index("ix_critic_sample_hash", "critic_sample", ["item_sha256"])
    op.create_table(
        "critic_prediction",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("sample_id", sa.Integer, sa.ForeignKey("critic_sample.id"), nullable=False),
        sa.Column("file_id", sa.Integer, sa.ForeignKey("critic_file.id"), nullable=False),
        sa.Column("model", sa.String, nullable=False),
        sa.Column("predictions_json", sa.Text, nullable=False),
        sa.UniqueConstraint("sample_id", "file_id", name="uq_critic_prediction"),
    )


def downgrade() -> None:
    op.drop_table("critic_prediction")
    op.drop_index("ix_critic_sample_hash", table_name="critic_sample")
    op.drop_table("critic_sample")
    op.drop_table("critic_file")
