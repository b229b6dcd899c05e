"""Alembic environment: runs migrations on the connection the caller passes in (db/migrate.py
holds the migration lock on it, inside one transaction)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

connection = context.config.attributes["connection"]
assert isinstance(connection, Connection)

context.configure(
    connection=connection,
    render_as_batch=connection.dialect.name == "sqlite",
)
context.run_migrations()
