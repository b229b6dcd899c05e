"""`w2c mlflow` against a real `mlflow server` on 127.0.0.1 (started by the test, torn down
after), read back with the mlflow client: a run (parameters, metrics with interval bounds,
artifacts over HTTP, its UI page), the agreement decision document with each judge's decision
and κ with its interval, the HTML report; logging again adds no MLflow run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from judge_lab_data import setup
from mlflow_fixtures import mlflow_server_uri, require_mlflow
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.runs import Backend, Method, RunConfig
from w2c_tui.domain.tracking import metric_name
from w2c_tui.services import Services

__all__ = ["mlflow_server_uri"]  # the fixture, used by name
runner = CliRunner()


@pytest.fixture(autouse=True)
def _mlflow(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    require_mlflow()
    monkeypatch.setenv("W2C_EXPORTS_DIR", str(tmp_path / "exports"))


def client(uri: str):  # type: ignore[no-untyped-def]
    import mlflow

    return mlflow.MlflowClient(tracking_uri=uri)


def invoke(db_url: str, *args: str) -> dict[str, object]:
    result = runner.invoke(app, ["--db", db_url, *args])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_agreement_and_report_on_a_real_server(
    demo: Services, db_url: str, mlflow_server_uri: str, tmp_path: Path
) -> None:
    uri = mlflow_server_uri
    setup(demo)  # alice labels every response; judge gpt-j in two prompt versions
    doc = invoke(db_url, "mlflow", "log-agreement", "--uri", uri, "--bootstrap", "200", "--json")
    assert doc["status"] == "logged" and str(doc["url"]).startswith(f"{uri}/#/experiments/")
    c = client(uri)
    run = c.get_run(str(doc["mlflow_run_id"]))
    assert run.info.run_name == "w2c-agreement-demo"
    agreement = json.loads(
        runner.invoke(app, ["--db", db_url, "agreement", "--bootstrap", "200", "--json"]).stdout
    )
    for judge in agreement["judges"]:
        name = metric_name(judge["key"])
        assert run.data.tags[f"w2c.stand_in.{name}"] == judge["stand_in"]["decision"]
        kappa = judge.get("cohen_kappa")
        if kappa and kappa["value"] is not None:
            metrics = run.data.metrics
            assert metrics[f"judges.{name}.cohen_kappa"] == pytest.approx(kappa["value"])
            assert metrics[f"judges.{name}.cohen_kappa_ci_low"] == pytest.approx(kappa["ci"][0])
    folder = tmp_path / "got"
    folder.mkdir()
    local = c.download_artifacts(run.info.run_id, "decisions.md", str(folder))
    assert "stand in" in Path(local).read_text(encoding="utf-8")
    experiment = run.info.experiment_id
    before = len(c.search_runs([experiment]))
    again = invoke(db_url, "mlflow", "log-agreement", "--uri", uri, "--bootstrap", "200", "--json")
    assert again["mlflow_run_id"] == doc["mlflow_run_id"]
    assert len(c.search_runs([experiment])) == before
    # the report, as a run of its own with the HTML as its artifact
    out = tmp_path / "r.html"
    result = runner.invoke(
        app, ["--db", db_url, "report", "--bootstrap", "50", "-o", str(out), "--mlflow", uri]
    )
    assert result.exit_code == 0, result.stderr
    [report] = [r for r in demo.tracking.records("demo") if r.subject.value == "report"]
    got = c.download_artifacts(report.mlflow_run_id or "", "r.html", str(folder))
    assert Path(got).read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_a_run_on_a_real_server(
    demo: Services, db_url: str, mlflow_server_uri: str, tmp_path: Path
) -> None:
    config = RunConfig(
        method=Method.MCQ_INDEX, backend=Backend.TRANSFORMERS, model="m0", dataset="demo"
    )
    run_id = demo.runs.create(config)
    demo.store.runs.update(run_id, status=demo.runs.get(run_id).status.__class__("cancelled"))
    doc = invoke(db_url, "mlflow", "log-run", str(run_id), "--uri", mlflow_server_uri, "--json")
    c = client(mlflow_server_uri)
    run = c.get_run(str(doc["mlflow_run_id"]))
    assert run.info.run_name == f"w2c-run-{run_id}" and run.data.params["model"] == "m0"
    assert run.data.tags["w2c.status"] == "cancelled" and run.data.metrics["tasks_done"] == 0
    assert doc["url"] == (
        f"{mlflow_server_uri}/#/experiments/{run.info.experiment_id}/runs/{run.info.run_id}"
    )
    assert {a.path for a in c.list_artifacts(run.info.run_id)} >= {"verdicts.jsonl"}


@pytest.mark.slow(minutes=0.5)
def test_human_labels_as_assessments(
    demo: Services, db_url: str, mlflow_server_uri: str, tmp_path: Path
) -> None:
    truth = setup(demo)  # alice labels every response with gold; judge gpt-j in two versions
    local = f"sqlite:///{tmp_path / 'ml.db'}"
    for uri in (mlflow_server_uri, local):
        doc = invoke(db_url, "mlflow", "log-labels", "--uri", uri, "--json")
        assert doc["traces_written"] == len(truth) and doc["traces_unchanged"] == 0
        c = client(uri)
        traces = c.search_traces(
            locations=[str(doc["experiment_id"])], run_id=str(doc["mlflow_run_id"]),
            max_results=500,
        )  # fmt: skip
        assert len(traces) == len(truth)
        for trace in traces:
            uuid, model = trace.info.tags["w2c.key"].split("@", 1)
            found = {
                (a.source.source_type, a.source.source_id, a.value) for a in trace.info.assessments
            }
            gold = truth[(uuid, model)].value
            assert ("HUMAN", "alice", gold) in found and ("HUMAN", "gold", gold) in found
            assert sum(t == "LLM_JUDGE" for t, _, _ in found) >= 1
    # a changed label replaces that one trace only
    rows = demo.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 1)
    detail = demo.review.detail(rows[0].id, None)
    response = detail.responses[0]
    other = Label.DIRECT if detail.item.gold is not Label.DIRECT else Label.TOOL_CALL
    demo.review.label_response("alice", rows[0].id, response.id or 0, other)
    again = invoke(db_url, "mlflow", "log-labels", "--uri", local, "--json")
    assert (again["traces_written"], again["traces_replaced"]) == (1, 1)
    assert again["traces_unchanged"] == len(truth) - 1
