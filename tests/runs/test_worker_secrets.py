"""The database URL reaches a run's worker through its environment, never its command line, and
its password appears nowhere a user or another user can read it: /proc/PID/cmdline, the run
row, the run's log, `w2c run show`, `w2c run list`, exports."""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from dbfixtures import unavailable
from fake_server import FakeOpenAI
from sqlalchemy import text
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStatus
from w2c_tui.runs.process import worker_command
from w2c_tui.runs.runlog import Redacting, log_file_name, public_db_url, url_secrets
from w2c_tui.services import Services, open_services

runner = CliRunner()
PG_ENV = "W2C_TEST_PG_URL"


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\x00", b" ").decode()


def config(url: str, **options: object) -> RunConfig:
    return RunConfig.of(
        method=Method.GENERATE,
        backend=Backend.OPENAI,
        model="fake-model",
        dataset="demo",
        base_url=url,
        concurrency=2,
        **options,  # type: ignore[arg-type]
    )


def wait_done(svc: Services, run_id: int) -> None:
    deadline = time.monotonic() + 60
    while not svc.runs.get(run_id).status.finished:
        assert time.monotonic() < deadline, "the run did not finish"
        time.sleep(0.1)


def test_the_worker_command_line_has_no_database_url(demo: Services) -> None:
    assert worker_command(7)[-4:] == ["w2c_tui", "run", "worker", "7"]
    with FakeOpenAI(latency_s=0.05) as server:
        run_id = demo.runs.create(config(server.url, limit=10))
        pid = demo.runs.launch(run_id)
        seen = cmdline(pid)
        wait_done(demo, run_id)
    # Neither the SQLite file nor the server URL (nor any part of it) is on the command line.
    where = demo.database_file() or demo.url
    assert "--db" not in seen and "sqlite" not in seen and "postgresql" not in seen
    assert where not in seen
    assert demo.runs.get(run_id).status is RunStatus.DONE


def test_urls_and_log_lines_are_scrubbed() -> None:
    url = "postgresql+psycopg://alice:s3cr3t-pw@db.example:5432/w2c?sslpassword=k3y-99&x=1"
    assert public_db_url(url) == (
        "postgresql+psycopg://alice:***@db.example:5432/w2c?sslpassword=***&x=1"
    )
    assert sorted(url_secrets(url)) == ["k3y-99", "s3cr3t-pw"]
    name = log_file_name(url, 4)
    assert name.startswith("w2c-") and name.endswith("-run-4.log") and "s3cr3t" not in name
    assert log_file_name(url, 4) != log_file_name(url.replace("/w2c", "/other"), 4)
    assert Redacting(["s3cr3t-pw"]).scrub("connect s3cr3t-pw failed") == "connect *** failed"


@pytest.fixture
def password_url() -> Iterator[str]:
    """A fresh PostgreSQL database reached by a URL that carries a password (the test cluster
    trusts 127.0.0.1, so any password is accepted; one already in the URL is kept)."""
    base = os.environ.get(PG_ENV)
    if not base:
        unavailable("PostgreSQL", f"{PG_ENV} is not set (scripts/test starts a throwaway cluster)")
    psycopg = pytest.importorskip("psycopg")
    parts = urlsplit(base)
    name = f"w2c_secret_{secrets.token_hex(4)}"
    plain = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    password = parts.password or f"pw-{secrets.token_hex(8)}"
    host = parts.hostname or "127.0.0.1"
    netloc = f"{parts.username or 'postgres'}:{password}@{host}:{parts.port or 5432}"
    yield urlunsplit(("postgresql+psycopg", netloc, f"/{name}", "", ""))
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_database_password_is_never_shown(password_url: str, tmp_path: Path) -> None:
    [password] = url_secrets(password_url)
    svc = open_services(password_url)
    try:
        svc.imports.import_demo()
        with FakeOpenAI(latency_s=0.05) as server:
            run_id = svc.runs.create(config(server.url, limit=12))
            pid = svc.runs.launch(run_id)
            seen = cmdline(pid)
            wait_done(svc, run_id)
        info = svc.runs.get(run_id)
        assert info.status is RunStatus.DONE, info.error
        with svc.store.engine.connect() as db:
            row = db.execute(text("SELECT * FROM run WHERE id = :id"), {"id": run_id}).one()
        log = Path(info.log_path or "").read_text("utf-8")
        shown = [
            runner.invoke(app, ["--db", password_url, *args])
            for args in (
                ["run", "show", str(run_id)],
                ["run", "show", str(run_id), "--json"],
                ["run", "list", "--json"],
                ["run", "logs", str(run_id)],
                ["verdicts", "export", "--run", str(run_id)],
            )
        ]
    finally:
        svc.close()
    assert all(r.exit_code == 0 for r in shown), [r.stderr for r in shown]
    assert password not in seen and "postgresql" not in seen
    assert password not in json.dumps([str(v) for v in row])
    assert "check passed" in log and password not in log
    for result in shown:
        assert password not in result.stdout and password not in result.stderr
