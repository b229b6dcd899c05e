"""Output files: `-o` never overwrites the open database, the default report path stays inside
exports/ whatever the dataset is called, CSV exports neutralise formula cells."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.cli.output import safe_name
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.io.csvcell import safe_cell
from w2c_tui.services import Services

runner = CliRunner()
QA = ReviewMode.ITEM_QA
DEMO_ITEMS = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo" / "when2call_demo.jsonl"


def test_labels_export_onto_the_database_is_refused(demo: Services) -> None:
    db_file = demo.database_file()
    if db_file is None:
        pytest.skip("a server database is no file that -o could overwrite")
    size = Path(db_file).stat().st_size
    for target in (db_file, db_file + "-wal"):
        result = runner.invoke(app, ["--db", demo.url, "labels", "export", "-o", target])
        assert result.exit_code == 2 and "it is the open database" in result.stderr
    assert Path(db_file).stat().st_size == size
    assert demo.datasets.all()  # still readable


def test_any_sqlite_file_is_refused_too(demo: Services, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    other.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    result = runner.invoke(app, ["--db", demo.url, "labels", "export", "-o", str(other)])
    assert result.exit_code == 2 and "it is an SQLite database" in result.stderr
    assert other.read_bytes().startswith(b"SQLite format 3")


def test_default_report_path_stays_inside_exports(services: Services, tmp_path: Path) -> None:
    services.imports.import_path(DEMO_ITEMS, dataset="../../escape/x")
    args = ["--db", services.url, "report", "--format", "md", "--bootstrap", "0"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    written = list((tmp_path / "exports").iterdir())
    assert [p.name for p in written] == ["report-___escape_x.md"]
    assert not (tmp_path / "escape").exists()
    assert safe_name("..") == "dataset" and safe_name("a/b c") == "a_b_c"


def test_csv_exports_neutralise_formula_cells(demo: Services) -> None:
    item = demo.review.find(
        "demo", demo.review.window("demo", ItemFilter(), QA, None, 0, 1)[0].uuid
    )
    evil = "=cmd|' /C calc'!A0"
    demo.review.label_item(evil, item.id, Label.TOOL_CALL)
    demo.review.set_note(evil, item.id, "", "@SUM(1+1)")
    result = runner.invoke(app, ["--db", demo.url, "labels", "export", "--format", "csv"])
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    [row] = [r for r in rows if r["annotator"].endswith("calc'!A0")]
    assert row["annotator"] == "'" + evil and row["note"] == "'@SUM(1+1)"
    assert safe_cell("-1.5") == "'-1.5" and safe_cell(-1.5) == -1.5
    assert safe_cell("+x") == "'+x" and safe_cell("ok") == "ok"
