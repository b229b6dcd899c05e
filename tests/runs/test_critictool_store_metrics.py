"""The official CriticTool metrics computed from stored predictions equal the reference's
(expected.json, written by the official code), through the service and `w2c critictool
metrics` (both databases)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tiny_similarity import one_thread_similarity, tiny_similarity_dir
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.runs.critictool.similarity import SentenceSimilarity
from w2c_tui.services import Services
from w2c_tui.services.critictool_metrics import CriticToolMetricsService

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
EXPECTED: dict[str, Any] = json.loads((CT / "expected.json").read_text(encoding="utf-8"))
TOLERANCE = 1e-6


@pytest.fixture(scope="module")
def similarity() -> Iterator[SentenceSimilarity]:
    """The tiny model, with one torch thread."""
    yield from one_thread_similarity()


def test_stored_predictions_score_as_the_reference(
    services: Services, similarity: SentenceSimilarity
) -> None:
    metrics = CriticToolMetricsService(services.store)
    for name, record in sorted(EXPECTED["runs"].items()):
        services.critictool.import_file(
            CT / "predictions" / f"{name}.json", dataset=name, target_model="m"
        )
        [setting] = metrics.compute(name, similarity=similarity).settings
        assert setting.target_model == "m" and setting.unpredicted == 0
        assert sorted(setting.per_sample) == sorted(record["per_sample"]), name
        for sample_id, values in record["per_sample"].items():
            ours = setting.per_sample[sample_id]
            assert set(ours) == set(values)
            for key, value in values.items():
                assert ours[key] == pytest.approx(value, abs=TOLERANCE), (name, sample_id, key)
        for key, value in record["means"].items():
            assert setting.means[key] == pytest.approx(value, abs=TOLERANCE), (name, key)


def test_one_dataset_gives_every_setting_and_the_overall_score(
    services: Services, similarity: SentenceSimilarity
) -> None:
    for name in ("interal_evol_data_w_cot", "external_skip_evol_data_w_cot"):
        services.critictool.import_file(CT / "predictions" / f"{name}.json", target_model="m")
    services.critictool.import_file(
        CT / "predictions" / "external_finish_evol_data_w_cot.json", target_model="m"
    )
    doc = CriticToolMetricsService(services.store).compute(similarity=similarity)
    assert doc.dataset == "critictool"
    keys = {(s.source, s.mode, s.cot) for s in doc.settings}
    assert keys == {
        ("internal", None, True),
        ("external", "skip", True),
        ("external", "finish", True),
    }
    internal = next(s for s in doc.settings if s.source == "internal")
    assert set(internal.by_error_type) >= {"none", "tool_select_error"}
    assert set(internal.by_variant) == {"evol"}
    assert {(o.mode, o.cot) for o in doc.overall} == {("skip", True), ("finish", True)}
    assert all(o.score is not None and 0 <= o.score <= 1 for o in doc.overall)


def test_cli_metrics(db_url: str) -> None:
    runner = CliRunner()
    pred = CT / "predictions" / "interal_base_data_wo_cot.json"
    result = runner.invoke(app, ["--db", db_url, "import", str(pred), "--target-model", "m"])
    assert result.exit_code == 0, result.stderr
    model = str(tiny_similarity_dir())
    args = ["--db", db_url, "critictool", "metrics", "--similarity-model", model]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    expected = EXPECTED["runs"]["interal_base_data_wo_cot"]["means"]
    assert doc["settings"][0]["means"]["critic"] == pytest.approx(expected["critic"])
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "m · internal · no CoT" in result.stdout
    missing = ["--db", db_url, "critictool", "metrics", "--similarity-model", "/no/such/model"]
    result = runner.invoke(app, missing)
    assert result.exit_code == 2 and "no similarity model at /no/such/model" in result.stderr
    result = runner.invoke(app, ["--db", db_url, "critictool", "metrics", "--dataset", "x"])
    assert result.exit_code == 1 and "no CriticTool dataset named 'x'" in result.stderr


def test_report_has_a_critictool_section(db_url: str, tmp_path: Path) -> None:
    runner = CliRunner()
    pred = CT / "predictions" / "interal_evol_data_w_cot.json"
    assert (
        runner.invoke(app, ["--db", db_url, "import", str(pred), "--target-model", "m"]).exit_code
        == 0
    )
    pred = CT / "predictions" / "external_finish_evol_data_w_cot.json"
    assert (
        runner.invoke(app, ["--db", db_url, "import", str(pred), "--target-model", "m"]).exit_code
        == 0
    )
    model = str(tiny_similarity_dir())
    out = tmp_path / "r.md"
    args = ["--db", db_url, "report", "--bootstrap", "10", "--similarity-model", model]
    result = runner.invoke(app, [*args, "--format", "md", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "## CriticTool: m · internal · CoT" in text
    assert "## CriticTool: m · external finish · CoT" in text
    assert "| m | yes | finish |" in text
    out_json = tmp_path / "r.json"
    result = runner.invoke(app, [*args, "--format", "json", "-o", str(out_json)])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(out_json.read_text(encoding="utf-8"))["critictool"]
    assert {s["source"] for s in doc["settings"]} == {"internal", "external"}
    missing = ["--db", db_url, "report", "--bootstrap", "10", "--format", "md", "-o", str(out)]
    result = runner.invoke(app, [*missing, "--similarity-model", "/no/such/model"])
    assert result.exit_code == 0
    assert "**Not computed**: no similarity model at /no/such/model" in out.read_text("utf-8")
