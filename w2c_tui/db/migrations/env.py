"""Alembic environment: runs migrations on the engine the caller passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

engine = context.config.attributes["engine"]
assert isinstance(engine, Engine)

with engine.begin() as connection:
    context.configure(
        connection=connection,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    context.run_migrations()
