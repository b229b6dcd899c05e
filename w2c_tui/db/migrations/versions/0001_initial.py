"""Initial schema: datasets, items, models, responses, raters, verdicts, QA flags, notes, runs.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dataset",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("source_path", sa.String),
        sa.Column("sha256", sa.String),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_dataset_name", "dataset", ["name"], unique=True)
    op.create_table(
        "item",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id"), nullable=False),
        sa.Column("uuid", sa.String, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("tools_json", sa.Text, nullable=False),
        sa.Column("answers_json", sa.Text, nullable=False),
        sa.Column("gold", sa.String),
        sa.Column("n_tools", sa.Integer, nullable=False),
        sa.Column("source", sa.String),
        sa.Column("source_id", sa.String),
        sa.Column("held_out_param", sa.String),
        sa.Column("target_tool", sa.Text),
        sa.Column("orig_question", sa.Text),
        sa.Column("extra_json", sa.Text, nullable=False),
        sa.Column("content_hash", sa.String, nullable=False),
        sa.UniqueConstraint("dataset_id", "uuid", name="uq_item_dataset_uuid"),
    )
    op.create_index("ix_item_dataset_position", "item", ["dataset_id", "position"])
    op.create_index("ix_item_dataset_gold", "item", ["dataset_id", "gold"])
    op.create_index("ix_item_uuid", "item", ["uuid"])
    op.create_table(
        "target_model",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("backend", sa.String),
        sa.Column("config_json", sa.Text, nullable=False),
    )
    op.create_index("ix_target_model_name", "target_model", ["name"], unique=True)
    op.create_table(
        "rater",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("config_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rater_key", "rater", ["key"], unique=True)
    op.create_index("ix_rater_kind", "rater", ["kind"])
    op.create_table(
        "run",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("target_model_id", sa.Integer, sa.ForeignKey("target_model.id")),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id")),
        sa.Column("dataset_id", sa.Integer, sa.ForeignKey("dataset.id")),
        sa.Column("config_json", sa.Text, nullable=False),
        sa.Column("fingerprint", sa.String),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("n_total", sa.Integer, nullable=False),
        sa.Column("n_done", sa.Integer, nullable=False),
        sa.Column("n_error", sa.Integer, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("pid", sa.Integer),
        sa.Column("host", sa.String),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True)),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
    )
    op.create_table(
        "response",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("target_model_id", sa.Integer, sa.ForeignKey("target_model.id"), nullable=False),
        sa.Column("text", sa.Text),
        sa.Column("sample_index", sa.Integer, nullable=False),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id")),
        sa.Column("source", sa.String),
        sa.Column("meta_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_response_item_model", "response", ["item_id", "target_model_id"])
    op.create_table(
        "verdict",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("target_model_id", sa.Integer, sa.ForeignKey("target_model.id")),
        sa.Column("response_id", sa.Integer, sa.ForeignKey("response.id")),
        sa.Column("label", sa.String),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("raw", sa.Text),
        sa.Column("scores_json", sa.Text, nullable=False),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id")),
        sa.Column("source", sa.String),
        sa.Column("supersedes_id", sa.Integer, sa.ForeignKey("verdict.id")),
        sa.Column("is_current", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_verdict_item_rater_current", "verdict", ["item_id", "rater_id", "is_current"]
    )
    op.create_index("ix_verdict_rater_current", "verdict", ["rater_id", "is_current"])
    op.create_index("ix_verdict_response", "verdict", ["response_id"])
    op.create_table(
        "qa_flag",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("code", sa.String, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_qa_flag_item_rater", "qa_flag", ["item_id", "rater_id"])
    op.create_table(
        "note",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("item.id"), nullable=False),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_note_item_rater", "note", ["item_id", "rater_id"])


def downgrade() -> None:
    for table in (
        "note",
        "qa_flag",
        "verdict",
        "response",
        "run",
        "rater",
        "target_model",
        "item",
        "dataset",
    ):
        op.drop_table(table)
