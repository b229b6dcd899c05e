"""Bad input and faults as a user meets them: ragged CSV rows, endless inputs, a database from
a newer version, a crash — each ends with a message and the right exit status."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from w2c_tui.cli import app, main
from w2c_tui.db.engine import make_engine
from w2c_tui.domain.errors import InputError
from w2c_tui.io.ratings import read_ratings
from w2c_tui.services import Services
from w2c_tui.services.datasets import DatasetService

runner = CliRunner()


def test_ragged_rows_in_a_ratings_csv_are_refused_by_line(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text("item,rater,label\na,r1,x\nb,r1,x,extra\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_ratings(path)
    assert caught.value.line == 3 and "4 cell(s) but the header has 3" in str(caught.value)
    path.write_text("item,rater,label\na,r1,x\nb,r1\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_ratings(path)
    assert caught.value.line == 3 and "2 cell(s)" in str(caught.value)
    path.write_text("item,rater,label\na,r1,\n", encoding="utf-8")  # an empty label is fine
    assert read_ratings(path) == [("a", "r1", None)]


@pytest.mark.parametrize("source", ["/dev/zero", "fifo"])
def test_endless_inputs_stop_with_a_message(db_url: str, tmp_path: Path, source: str) -> None:
    if source == "fifo":
        source = str(tmp_path / "pipe")
        os.mkfifo(source)
    result = runner.invoke(app, ["--db", db_url, "import", source])
    assert result.exit_code == 2
    assert "not a regular file" in result.stderr and source in result.stderr


def test_a_file_beyond_the_limit_is_refused(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "one-long-line.jsonl"
    path.write_bytes(b'{"uuid": "' + b"x" * 5000)
    monkeypatch.setenv("W2C_MAX_INPUT_BYTES", "4096")
    result = runner.invoke(app, ["--db", db_url, "import", str(path)])
    assert result.exit_code == 2 and "W2C_MAX_INPUT_BYTES" in result.stderr


def test_a_database_newer_than_the_software_says_so(services: Services) -> None:
    url = services.url
    services.close()
    engine = make_engine(url)
    with engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    result = runner.invoke(app, ["--db", url, "datasets", "list"])
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "schema revision 9999, which is newer than this version of w2c-tui knows" in message
    assert "upgrade w2c-tui" in message


def test_a_crash_exits_1_with_one_line_and_the_log(
    demo: Services,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(self: DatasetService) -> list[object]:
        raise RuntimeError("the disk went away\\nsecond line")

    monkeypatch.setattr(DatasetService, "all", broken)
    monkeypatch.setattr(sys, "argv", ["w2c", "--db", demo.url, "datasets", "list"])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("w2c stopped on an unexpected error: RuntimeError: the disk went away")
    log = Path(err.rsplit("details in ", 1)[1].rstrip(")"))
    assert log.is_relative_to(tmp_path) and "Traceback" in log.read_text("utf-8")
