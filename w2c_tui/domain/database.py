"""What a front end may say about the database it opened (never a password)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DatabaseInfo:
    """The backend, where the database is, and its schema revision."""

    url: str
    """The URL with any password replaced by ***."""
    backend: str
    """"sqlite" or "postgresql" (or another SQLAlchemy dialect's name)."""
    server_version: str
    host: str | None
    port: int | None
    database: str | None
    """The database name, or the SQLite file."""
    user: str | None
    revision: str | None
    head: str

    def where(self) -> str:
        """One line: the file, or database on host:port as user."""
        if self.backend == "sqlite":
            return self.database or ":memory:"
        place = f"{self.host or 'localhost'}:{self.port}" if self.port else self.host
        who = f" as {self.user}" if self.user else ""
        return f"{self.database} on {place or 'the default host'}{who}"
