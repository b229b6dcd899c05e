"""`w2c db status` and `w2c db upgrade`: which backend and database, never a password."""

from __future__ import annotations

import json

from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.db.migrate import head_revision

runner = CliRunner()
PASSWORD = "s3cret-Pw"


def with_password(url: str) -> str:
    """The URL with a password in it (the throwaway cluster trusts 127.0.0.1 and ignores it)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return url
    return parsed.set(password=PASSWORD).render_as_string(hide_password=False)


def test_db_status_names_backend_database_and_revision(db_url: str, db_backend: str) -> None:
    url = with_password(db_url)
    result = runner.invoke(app, ["--db", url, "db", "status"])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(":", 1) for line in result.stdout.splitlines())
    assert lines["backend"].split()[0] == db_backend
    assert lines["revision"].split()[0] == head_revision()
    database = make_url(db_url).database
    assert database is not None and database in lines["database"]
    assert PASSWORD not in result.output
    result = runner.invoke(app, ["--db", url, "db", "status", "--json"])
    status = json.loads(result.stdout)
    assert status["backend"] == db_backend and status["revision"] == status["head"]
    assert status["server_version"][0].isdigit()
    assert PASSWORD not in result.output
    if db_backend == "postgresql":
        assert status["host"] == "127.0.0.1" and status["user"] == make_url(db_url).username
        assert ":***@" in status["url"]
    result = runner.invoke(app, ["--db", url, "db", "upgrade"])
    assert result.exit_code == 0 and PASSWORD not in result.output


def test_a_database_that_cannot_be_opened_is_named_without_its_password() -> None:
    url = f"postgresql+psycopg://alice:{PASSWORD}@127.0.0.1:1/w2c"  # nothing listens on port 1
    result = runner.invoke(app, ["--db", url, "db", "status"])
    assert result.exit_code == 2
    assert "alice:***@127.0.0.1:1/w2c" in result.stderr and PASSWORD not in result.output
