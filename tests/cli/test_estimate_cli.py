"""`w2c estimate`: the --json contract, the text, and the errors (stdout and stderr apart)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.services import open_services

runner = CliRunner()
MODEL = "acme-7b-instruct"
ARGS = ["estimate", "--target-model", MODEL, "--judge", "demo-judge"]


def demo_with_labels(db_url: str, tmp_path: Path, every: int = 2) -> None:
    """The demo, and a human's label on every `every`-th response of MODEL: gold, but
    direct on every third (a model that is not always right)."""
    svc = open_services(db_url)
    try:
        svc.imports.import_demo()
        units = [u for u in svc.metrics.readings("demo").units if u.target_model == MODEL]
        path = tmp_path / "labels.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["uuid", "annotator", "label", "target_model"])
            for i, unit in enumerate(units[::every]):
                assert unit.gold is not None
                value = "direct" if i % 3 == 0 else unit.gold.value
                writer.writerow([unit.item_uuid, "alice", value, MODEL])
        svc.labels.import_file(path, "demo")
    finally:
        svc.close()


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1", "answer_hallucination"])
def test_json_shape(db_url: str, tmp_path: Path, metric: str) -> None:
    demo_with_labels(db_url, tmp_path)
    result = runner.invoke(app, ["--db", db_url, *ARGS, "--metric", metric, "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    for part in ("corrected", "judge_only", "humans_only"):
        assert set(doc[part]) >= {"value", "ci", "n"}
        assert isinstance(doc[part]["n"], int)
    assert doc["corrected"]["ci"][0] <= doc["corrected"]["value"] <= doc["corrected"]["ci"][1]
    assert doc["n_invalid"] == 1  # the demo judge's unparsable output on this model
    assert doc["n_labelled"] + doc["n_unlabelled"] + doc["n_invalid"] == 30
    assert "lambda" in doc and "labels_to_halve" in doc
    assert (doc["lambda"] is None) == (metric == "macro_f1")
    assert doc["metric"] == metric and doc["judge"] == "judge:demo-judge"


def test_text_says_how_invalid_verdicts_count(db_url: str, tmp_path: Path) -> None:
    demo_with_labels(db_url, tmp_path)
    result = runner.invoke(app, ["--db", db_url, *ARGS, "--metric", "accuracy"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "corrected" in out and "judge only" in out and "humans only" in out
    assert "counted as n_invalid" in out and "1 invalid" in out
    assert "to halve the interval" in out


def test_errors_exit_non_zero(db_url: str, tmp_path: Path) -> None:
    svc = open_services(db_url)
    svc.imports.import_demo()
    svc.close()
    result = runner.invoke(app, ["--db", db_url, *ARGS, "--metric", "accuracy"])
    assert result.exit_code != 0 and result.stdout == ""
    assert "no human reference on any of acme-7b-instruct's responses judged by" in result.stderr
    for args, text in (
        (["--judge", "nobody"], "no judge 'nobody'"),
        (["--target-model", "gpt-x"], "no target model 'gpt-x'"),
        (["--dataset", "nope"], "nope"),
    ):
        base = ["estimate", "--target-model", MODEL, "--judge", "demo-judge", *args]
        result = runner.invoke(app, ["--db", db_url, *base, "--metric", "accuracy"])
        assert result.exit_code != 0, args
        assert text in result.stderr and result.stdout == ""
    bad = runner.invoke(app, ["--db", db_url, *ARGS, "--metric", "f2"])
    assert bad.exit_code == 2


def test_report_has_the_corrected_table(db_url: str, tmp_path: Path) -> None:
    demo_with_labels(db_url, tmp_path)
    target = tmp_path / "report.md"
    result = runner.invoke(
        app, ["--db", db_url, "report", "--format", "md", "-o", str(target), "--bootstrap", "200"]
    )
    assert result.exit_code == 0, result.stderr
    text = target.read_text(encoding="utf-8")
    section = text.split("## Judge-corrected scores", 1)[1]
    same = runner.invoke(app, ["--db", db_url, *ARGS, "--metric", "accuracy", "--json"])
    doc = json.loads(same.stdout)["corrected"]
    low, high = doc["ci"]
    cell = f"{100 * doc['value']:.1f} [{100 * low:.1f}, {100 * high:.1f}]"
    row = next(
        line for line in section.splitlines() if f"| {MODEL} |" in line and "accuracy" in line
    )
    assert cell in row
    as_json = tmp_path / "report.json"
    runner.invoke(app, ["--db", db_url, "report", "--format", "json", "-o", str(as_json)])
    corrected = json.loads(as_json.read_text(encoding="utf-8"))["corrected"]
    assert {c["metric"] for c in corrected} == {
        "accuracy",
        "macro_f1",
        "tool_hallucination",
        "answer_hallucination",
        "parameter_hallucination",
    }
