"""What every table module shares: UTC timestamps and the "one current row per unit" index."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Index, text


def utcnow() -> datetime:
    """Timestamps are stored in UTC."""
    return datetime.now(UTC)


def one_current(name: str, *unit: Any) -> Index:
    """The partial unique index that lets a table hold one current row per `unit` (its older
    rows stay, `is_current` false): on SQLite and PostgreSQL alike."""
    current = text("is_current")
    return Index(name, *unit, unique=True, sqlite_where=current, postgresql_where=current)
