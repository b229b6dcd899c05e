"""The command line through Typer's runner: stdout for data, stderr for diagnostics."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import open_services

runner = CliRunner()


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


def test_help_explains_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("tui", "import", "datasets", "items", "labels", "db"):
        assert command in result.stdout
    result = runner.invoke(app, ["import", "--help"])
    assert "--dry-run" in result.stdout and "--strict" in result.stdout


def test_import_and_list_the_real_file(db_url: str, judge_file: Path) -> None:
    code, out, _ = w2c(db_url, "import", str(judge_file))
    assert code == 0 and "300 new items" in out
    code, out, _ = w2c(db_url, "items", "list", "--json")
    assert code == 0
    listing = json.loads(out)
    assert listing["total"] == 300 and len(listing["items"]) == 300
    golds = [i["gold"] for i in listing["items"]]
    assert {g: golds.count(g) for g in set(golds)} == {
        "tool_call": 100,
        "request_for_info": 100,
        "cannot_answer": 100,
    }
    assert sum(1 for i in listing["items"] if i["n_tools"] == 0) == 17
    code, out, _ = w2c(db_url, "import", str(judge_file), "--json")
    [report] = json.loads(out)
    assert (report["items_new"], report["items_unchanged"]) == (0, 300)
    code, out, _ = w2c(db_url, "datasets", "list", "--json")
    assert json.loads(out)[0]["items"] == 300


def test_malformed_line_names_the_line_and_exits_2(
    db_url: str, judge_file: Path, tmp_path: Path
) -> None:
    lines = judge_file.read_text(encoding="utf-8").splitlines()[:5]
    lines[2] = lines[2].replace('"question":', '"question" ', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = w2c(db_url, "import", str(bad))
    assert code == 2
    assert f"{bad}:3" in err and out == ""
    code, out, _ = w2c(db_url, "datasets", "list", "--json")
    assert json.loads(out) == []


def test_api_suite_report_lists_unknown_uuids(
    db_url: str, judge_file: Path, api_suite_run: Path
) -> None:
    w2c(db_url, "import", str(judge_file))
    code, out, _ = w2c(db_url, "import", str(api_suite_run))
    assert code == 0
    assert "4 new responses" in out and "11 uuid(s) not in the dataset" in out
    code, _, err = w2c(db_url, "import", str(api_suite_run), "--strict")
    assert code == 3 and "nothing imported" in err


def test_items_show_and_labels_export(db_url: str, tmp_path: Path) -> None:
    services = open_services(db_url)
    services.imports.import_demo()
    row = services.review.window("demo", ItemFilter(), ReviewMode.ITEM_QA, None, 0, 1)[0]
    services.review.label_item("alice", row.id, Label.CANNOT_ANSWER)
    services.review.set_flag("alice", row.id, "qca_vague", True)
    services.close()
    code, out, _ = w2c(db_url, "items", "show", row.uuid[:8], "--json")
    shown = json.loads(out)
    assert code == 0 and shown["uuid"] == row.uuid and len(shown["models"]) == 2
    code, out, _ = w2c(db_url, "labels", "export", "--format", "jsonl")
    [record] = [json.loads(line) for line in out.splitlines()]
    assert (record["annotator"], record["item_uuid"], record["label"], record["flags"]) == (
        "alice",
        row.uuid,
        "cannot_answer",
        ["qca_vague"],
    )
    target = tmp_path / "out" / "labels.csv"
    code, _, err = w2c(db_url, "labels", "export", "--format", "csv", "-o", str(target))
    assert code == 0 and "wrote 1" in err
    [csv_row] = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert csv_row["flags"] == "qca_vague" and csv_row["target_model"] == ""


def test_unknown_item_and_dataset_exit_1(db_url: str) -> None:
    code, _, err = w2c(db_url, "items", "list")
    assert code == 1 and "no datasets yet" in err
    code, _, err = w2c(db_url, "items", "list", "--dataset", "nope")
    assert code == 1 and "no dataset named 'nope'" in err


def test_db_upgrade_reports_revision(empty_db_url: str) -> None:
    code, out, _ = w2c(empty_db_url, "db", "upgrade")
    assert code == 0 and "upgraded from revision empty" in out
    code, out, _ = w2c(empty_db_url, "db", "upgrade")
    assert "already at revision" in out


def test_a_manifest_folder_imports_file_by_file_and_dry_runs_write_nothing(db_url: str) -> None:
    demo = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo"
    code, out, _ = w2c(db_url, "import", str(demo), "--dry-run", "--json")
    assert code == 0
    dry = json.loads(out)
    assert dry[0]["kind"] == "when2call_test" and len(dry) == 5
    assert all(r["dry_run"] for r in dry) and dry[0]["items_new"] == 30
    assert dry[1]["responses_new"] == 30 and "read and checked only" in dry[1]["notes"][-1]
    code, out, _ = w2c(db_url, "datasets", "list", "--json")
    assert json.loads(out) == []  # nothing written
    code, out, _ = w2c(db_url, "import", str(demo), "--json")
    reports = json.loads(out)
    assert code == 0 and [r["dataset"] for r in reports] == ["demo"] * 5
    assert sum(r["verdicts_new"] for r in reports) == 120  # 2 judge files + 2 log-prob files
    code, out, _ = w2c(db_url, "import", str(demo), "--json")
    assert all(
        not (r["items_new"] or r["responses_new"] or r["verdicts_new"]) for r in json.loads(out)
    )
