"""Trust: roles (`team_member`), browser invitations (`invite`, token hashes only) and an
assignment plan's blind policy (`assignment_plan.blind`).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "team_member",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("role", sa.String, nullable=False),
        sa.Column("added_by", sa.String, nullable=True),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("rater_id", name="uq_team_member_rater"),
    )
    op.create_table(
        "invite",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rater_id", sa.Integer, sa.ForeignKey("rater.id"), nullable=False),
        sa.Column("token_hash", sa.String, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("token_hash", name="uq_invite_token_hash"),
    )
    op.create_index("ix_invite_rater", "invite", ["rater_id"])
    with op.batch_alter_table("assignment_plan") as batch:
        batch.add_column(sa.Column("blind", sa.Text(), nullable=False, server_default="default"))


def downgrade() -> None:
    with op.batch_alter_table("assignment_plan") as batch:
        batch.drop_column("blind")
    op.drop_index("ix_invite_rater", table_name="invite")
    op.drop_table("invite")
    op.drop_table("team_member")
