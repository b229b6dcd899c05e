"""CriticTool through the CLI on both databases: `w2c import` detects dataset and predictions
files by content, stores them idempotently, refuses a predictions file whose sample the
dataset lacks (by sample id); `w2c critictool metrics` gives the reference's means."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app

pytest.importorskip("sentence_transformers")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runs"))
from tiny_similarity import tiny_similarity_dir

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
EXPECTED: dict[str, Any] = json.loads((CT / "expected.json").read_text(encoding="utf-8"))
runner = CliRunner()


def w2c(url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", url, *args])
    return result.exit_code, result.stdout, result.stderr


def test_import_twice_then_metrics_equal_the_reference(db_url: str, tmp_path: Path) -> None:
    internal = CT / "dataset" / "internal_error" / "base_data_wo_cot.json"
    predictions = CT / "predictions" / "interal_base_data_wo_cot.json"
    external = CT / "predictions" / "external_skip_base_data_wo_cot.json"
    code, out, err = w2c(db_url, "import", str(internal), "--json")
    assert code == 0, err
    [report] = json.loads(out)
    assert (report["kind"], report["items_new"]) == ("critictool", 21)
    args = ["import", str(predictions), str(external), "--target-model", "scripted", "--json"]
    code, out, err = w2c(db_url, *args)
    assert code == 0, err
    first = json.loads(out)
    assert [(r["items_new"], r["items_unchanged"], r["responses_new"]) for r in first] == [
        (0, 21, 21),
        (7, 0, 7),
    ]
    code, out, _ = w2c(db_url, *args)  # again: nothing new
    assert [(r["items_new"], r["responses_new"]) for r in json.loads(out)] == [(0, 0), (0, 0)]

    code, out, err = w2c(
        db_url, "critictool", "metrics", "--similarity-model", str(tiny_similarity_dir()), "--json"
    )
    assert code == 0, err
    result = json.loads(out)
    by_file = {f["file"].removesuffix(".json"): f for f in result["files"]}
    for name in ("interal_base_data_wo_cot", "external_skip_base_data_wo_cot"):
        ours = {("break" if k == "broke" else k): v for k, v in by_file[name]["means"].items()}
        for key, value in EXPECTED["runs"][name]["means"].items():
            assert ours[key] == pytest.approx(value, abs=1e-6), (name, key)
    assert result["overall"]["scripted"] is not None


def test_a_predictions_sample_the_dataset_lacks_is_refused(db_url: str, tmp_path: Path) -> None:
    internal = CT / "dataset" / "internal_error" / "base_data_wo_cot.json"
    assert w2c(db_url, "import", str(internal))[0] == 0
    data = json.loads((CT / "predictions" / "interal_base_data_wo_cot.json").read_text("utf-8"))
    first = next(iter(data))
    record = data.pop(first)
    record["query_prompt"][1]["content"] += " (changed)"
    data["a-sample-of-our-own"] = record
    bad = tmp_path / "interal_base_data_wo_cot.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    dataset = "critictool_internal_base_data_wo_cot"
    code, _, err = w2c(db_url, "import", str(bad), "--dataset", dataset)
    assert code == 2 and "a-sample-of-our-own" in err and "not a sample of dataset" in err
    code, out, _ = w2c(db_url, "critictool", "metrics", "--dataset", dataset)
    assert code == 2 and "no CriticTool predictions stored" in (out + _)
