"""CriticTool samples and predictions: `critic_sample` and `critic_prediction`, side tables of
`item` and `response`.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "critic_sample",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False, unique=True),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("sample_id", sa.String, nullable=False),
        sa.Column("source", sa.String, nullable=False),
        sa.Column("variant", sa.String, nullable=True),
        sa.Column("cot", sa.Boolean, nullable=False),
        sa.Column("mode", sa.String, nullable=True),
        sa.Column("error_type", sa.String, nullable=True),
        sa.Column("system_prompt", sa.Text, nullable=False),
        sa.Column("turns_json", sa.Text, nullable=False),
        sa.Column("tools_json", sa.Text, nullable=False),
        sa.Column("gold_json", sa.Text, nullable=False),
        sa.Column("item_sha256", sa.String, nullable=False),
        sa.Column("raw_json", sa.Text, nullable=False),
        sa.Column("sha256", sa.String, nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("source_path", sa.String, nullable=True),
    )
    op.create_index("ix_critic_sample_sha", "critic_sample", ["dataset_id", "item_sha256"])
    op.create_table(
        "critic_prediction",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column(
            "response_id", sa.Integer, sa.ForeignKey("response.id"), nullable=False, unique=True
        ),
        sa.Column("target_model_id", sa.Integer, sa.ForeignKey("target_model.id"), nullable=False),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id"), nullable=True),
        sa.Column("mode", sa.String, nullable=False),
        sa.Column("cot", sa.Boolean, nullable=False),
        sa.Column("rounds_json", sa.Text, nullable=False),
        sa.Column("parsed_json", sa.Text, nullable=False),
        sa.Column("raw_json", sa.Text, nullable=True),
        sa.Column("source_path", sa.String, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(
            "item_id", "target_model_id", "mode", "cot", name="uq_critic_prediction"
        ),
    )


def downgrade() -> None:
    op.drop_table("critic_prediction")
    op.drop_index("ix_critic_sample_sha", table_name="critic_sample")
    op.drop_table("critic_sample")
