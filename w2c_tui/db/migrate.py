"""Alembic migrations, driven from code so that opening a database upgrades it."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    """A Config pointing at our migration scripts and reusing `engine`."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None for an empty database)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    """The newest revision this version of w2c-tui knows."""
    script = ScriptDirectory(str(MIGRATIONS))
    head = script.get_current_head()
    assert head is not None
    return head


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration up to `revision` (a no-op when already there)."""
    if revision == "head" and current_revision(engine) == head_revision():
        return
    command.upgrade(alembic_config(engine), revision)
