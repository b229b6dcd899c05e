"""A CriticTool sample is its file's id within its dataset, as in the official code (issue 19):
`critic_sample` gets a unique index on (dataset_id, sample_id); the content digest
(`item_sha256`) stays, indexed, as the fingerprint a re-import is checked against. Before the
index, each stored sample takes its id from its item row (`item.uuid`, unique per dataset),
which is what the importer wrote there; the rows are otherwise untouched.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

_meta = sa.MetaData()
SAMPLE = sa.Table(
    "critic_sample",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("item_id", sa.Integer),
    sa.Column("dataset_id", sa.Integer),
    sa.Column("sample_id", sa.String),
)
ITEM = sa.Table(
    "item",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("dataset_id", sa.Integer),
    sa.Column("uuid", sa.String),
)


def upgrade() -> None:
    item = sa.select(ITEM.c.uuid).where(ITEM.c.id == SAMPLE.c.item_id).scalar_subquery()
    item_dataset = (
        sa.select(ITEM.c.dataset_id).where(ITEM.c.id == SAMPLE.c.item_id).scalar_subquery()
    )
    op.execute(SAMPLE.update().values(sample_id=item, dataset_id=item_dataset))
    op.create_index(
        "uq_critic_sample_id", "critic_sample", ["dataset_id", "sample_id"], unique=True
    )


def downgrade() -> None:
    op.drop_index("uq_critic_sample_id", table_name="critic_sample")
