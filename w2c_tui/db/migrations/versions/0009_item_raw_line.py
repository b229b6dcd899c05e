"""The imported line of each test item, kept so that an untouched item exports byte for byte.

`item.raw_line` (nullable): filled by the When2Call test-file importer from now on, and for
items imported earlier when their file is imported again (their content unchanged). Items
without it are re-serialised in the official layout on export (docs/outcomes.md).

Revision ID: 0009
Revises: 0005
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("item") as batch:
        batch.add_column(sa.Column("raw_line", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("item") as batch:
        batch.drop_column("raw_line")
