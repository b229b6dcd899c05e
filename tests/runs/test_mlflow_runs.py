"""Runs logged to MLflow (`w2c run start --mlflow`, `w2c mlflow log-run`): a real judge run of
the openai backend against a local server, logged to MLflow's local store and to a file store,
read back with the mlflow client: parameters, metrics with interval bounds, artifacts, the
parent/child layout of repeats; logging twice updates the one MLflow run; a tracking server that
is down never fails the run and is caught up later; no secret anywhere (a canary key)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fake_server import FakeOpenAI
from mlflow_fixtures import dead_uri, require_mlflow
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.runs import RunStatus
from w2c_tui.domain.tracking import TrackingStatus
from w2c_tui.services import Services

KEY_ENV = "W2C_TEST_MLFLOW_KEY"
CANARY = "sk-canary-7f3a9c1e5b"
runner = CliRunner()


@pytest.fixture(autouse=True)
def _mlflow(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    require_mlflow()
    monkeypatch.setenv(KEY_ENV, CANARY)
    monkeypatch.setenv("W2C_EXPORTS_DIR", str(tmp_path / "exports"))
    monkeypatch.delenv("W2C_MLFLOW_TRACKING_URI", raising=False)


def judge_args(db_url: str, server: FakeOpenAI, *more: str) -> list[str]:
    return [
        "--db", db_url, "run", "start", "--method", "judge", "--backend", "openai",
        "--model", "fake-model", "--target-model", "acme-7b-instruct",
        "--base-url", server.url, "--api-key-env", KEY_ENV, "--wait", *more,
    ]  # fmt: skip


def client(uri: str):  # type: ignore[no-untyped-def]
    import mlflow

    return mlflow.MlflowClient(tracking_uri=uri)


def every_text(uri: str, run_ids: list[str], tmp_path: Path) -> str:
    """Every parameter, tag and artifact of these MLflow runs, as one text."""
    c = client(uri)
    parts = []
    for run_id in run_ids:
        run = c.get_run(run_id)
        parts += [json.dumps(dict(run.data.params)), json.dumps(dict(run.data.tags))]
        folder = tmp_path / "download" / run_id
        folder.mkdir(parents=True, exist_ok=True)
        for artifact in c.list_artifacts(run_id):
            local = c.download_artifacts(run_id, artifact.path, str(folder))
            parts.append(Path(local).read_text(encoding="utf-8"))
    return "\n".join(parts)


def test_a_judge_run_with_repeats_logs_parent_and_children(
    demo: Services, db_url: str, tmp_path: Path
) -> None:
    store = f"sqlite:///{tmp_path / 'ml' / 'mlflow.db'}"
    reply = '{"classification": "tool_call"}'
    with FakeOpenAI(api_key=CANARY, default_reply=reply) as server:
        args = judge_args(db_url, server, "--repeats", "3", "--temperature", "0.7", "--json")
        result = runner.invoke(app, [*args, "--mlflow", store])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    run_id = out["run_id"]
    [record] = out["mlflow"]
    assert record["status"] == "logged" and record["tracking_uri"] == store
    info = demo.runs.get(run_id)
    assert info.status is RunStatus.DONE
    c = client(store)
    parent = c.get_run(record["mlflow_run_id"])
    assert parent.info.run_name == f"w2c-run-{run_id}"
    assert c.get_experiment(parent.info.experiment_id).name == "demo"
    params = parent.data.params
    assert params["method"] == "judge" and params["model"] == "fake-model"
    assert params["repeats"] == "3" and params["seed"] == "0"
    assert params["fingerprint"] == info.fingerprint
    assert params["judge_prompt_version"].startswith("when2call-judge-v1@")
    assert params["api_key_env"] == KEY_ENV  # the variable's name, never its value
    tags = parent.data.tags
    assert tags["w2c.database"] == demo.store.engine.dialect.name and tags["w2c.host"]
    metrics = parent.data.metrics
    # the judge says tool_call for every response: accuracy = the share of tool_call gold
    gold = [
        u.gold for u in demo.metrics.readings("demo").units if u.target_model == "acme-7b-instruct"
    ]
    share = sum(g is not None and g.value == "tool_call" for g in gold) / len(gold)
    assert metrics["accuracy"] == pytest.approx(share)
    assert metrics["accuracy_ci_low"] <= metrics["accuracy"] <= metrics["accuracy_ci_high"]
    assert metrics["accuracy_n"] == len(gold)
    assert "stability.stability_at_k" in metrics and metrics["tasks_done"] == 3 * len(gold)
    children = c.search_runs(
        [parent.info.experiment_id],
        filter_string=f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'",
    )
    assert sorted(r.info.run_name for r in children) == [
        f"w2c-run-{run_id}-repeat-{k}" for k in range(3)
    ]
    assert all(r.data.metrics["accuracy"] == pytest.approx(share) for r in children)
    artifacts = {a.path for a in c.list_artifacts(parent.info.run_id)}
    assert artifacts == {"verdicts.jsonl", f"w2c-run-{run_id}.log"}
    text = every_text(store, [parent.info.run_id, *(r.info.run_id for r in children)], tmp_path)
    assert CANARY not in text and "tool_call" in text
    # logging again changes nothing: the same MLflow run, no new one
    again = runner.invoke(app, ["--db", db_url, "mlflow", "log-run", str(run_id), "--uri", store])
    assert again.exit_code == 0, again.stderr
    assert len(c.search_runs([parent.info.experiment_id])) == 4
    [stored] = demo.tracking.for_runs([run_id])[run_id]
    assert stored.mlflow_run_id == parent.info.run_id and stored.status is TrackingStatus.LOGGED
    shown = runner.invoke(app, ["--db", db_url, "run", "show", str(run_id)])
    assert f"mlflow: logged to {store} run {parent.info.run_id}" in shown.stdout


def test_a_tracking_server_that_is_down_never_fails_the_run(
    demo: Services, db_url: str, tmp_path: Path
) -> None:
    down = dead_uri()
    with FakeOpenAI(api_key=CANARY, default_reply='{"classification": "direct"}') as server:
        started = time.monotonic()
        result = runner.invoke(app, [*judge_args(db_url, server, "--limit", "6"), "--mlflow", down])
        took = time.monotonic() - started
    assert result.exit_code == 0, result.stderr
    run = demo.runs.all()[0]
    assert run.status is RunStatus.DONE and run.n_done == 6
    assert f"not logged to {down}" in result.stdout
    log = Path(run.log_path or "").read_text(encoding="utf-8")
    assert "MLflow: run" in log and "was not logged" in log and "w2c mlflow log-run" in log
    [record] = demo.tracking.for_runs([run.id])[run.id]
    assert record.status is TrackingStatus.FAILED and record.error
    assert took < 60
    # catching up, to a file store (a folder)
    folder = tmp_path / "mlruns-files"
    caught = runner.invoke(
        app, ["--db", db_url, "mlflow", "log-run", str(run.id), "--uri", str(folder), "--json"]
    )
    assert caught.exit_code == 0, caught.stderr
    doc = json.loads(caught.stdout)
    assert doc["status"] == "logged" and doc["tracking_uri"] == folder.resolve().as_uri()
    got = client(doc["tracking_uri"]).get_run(doc["mlflow_run_id"])
    assert got.data.params["limit"] == "6" and got.data.metrics["accuracy_n"] == 6
    assert (folder / doc["experiment_id"]).is_dir()  # MLflow's file store layout


def test_a_bare_mlflow_logs_to_the_local_store_in_exports(
    demo: Services, db_url: str, tmp_path: Path
) -> None:
    with FakeOpenAI(api_key=CANARY, default_reply='{"classification": "direct"}') as server:
        result = runner.invoke(app, [*judge_args(db_url, server, "--limit", "5"), "--mlflow"])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "exports" / "mlruns" / "mlflow.db").is_file()
    [record] = demo.tracking.records("demo")
    assert record.status is TrackingStatus.LOGGED
    run = client(record.tracking_uri).get_run(record.mlflow_run_id or "")
    art = client(record.tracking_uri).list_artifacts(run.info.run_id)
    assert {a.path for a in art} >= {"verdicts.jsonl"}
    assert str(tmp_path / "exports" / "mlruns" / "artifacts") in run.info.artifact_uri


def test_credentials_in_the_uri_are_refused_before_anything_starts(
    demo: Services, db_url: str
) -> None:
    with FakeOpenAI() as server:
        result = runner.invoke(
            app, [*judge_args(db_url, server), "--mlflow", "http://me:pw@127.0.0.1:5000"]
        )
    assert result.exit_code != 0 and "MLFLOW_TRACKING_USERNAME" in result.stderr
    assert "pw" not in result.stderr.replace("password", "")
    assert demo.runs.all() == []


CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "dataset"


def test_a_critictool_run_logs_the_official_metrics(
    services: Services, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tiny_similarity import tiny_similarity_dir

    from w2c_tui.runs.critictool.similarity import SentenceSimilarity
    from w2c_tui.services.critictool_metrics import CriticToolMetricsService
    from w2c_tui.services.tracking import critictool_metrics

    model = tiny_similarity_dir()
    for source in ("internal_error", "external_error"):  # external samples need the model
        services.imports.import_path(CT / source / "base_data_wo_cot.json", dataset="ct")
    store = f"sqlite:///{tmp_path / 'ml.db'}"
    reply = '{"error": "tool_select_error", "name": "FinishAction", "args": "done"}'
    with FakeOpenAI(api_key=CANARY, default_reply=reply) as server:
        args = [
            "--db", db_url, "run", "start", "--method", "critictool", "--backend", "openai",
            "--model", "fake-model", "--dataset", "ct", "--base-url", server.url,
            "--api-key-env", KEY_ENV, "--wait", "--json",
        ]  # fmt: skip
        monkeypatch.setenv("W2C_SIMILARITY_MODEL", "/nonexistent/model")
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        missing = runner.invoke(app, [*args, "--mlflow", store])  # no similarity model here
    assert missing.exit_code == 0, missing.stderr
    first = json.loads(missing.stdout)
    without = client(store).get_run(first["mlflow"][0]["mlflow_run_id"])
    assert "not computed" in without.data.tags["w2c.critictool_metrics"]
    assert not any(k.startswith("critictool.") for k in without.data.metrics)
    # with the model at hand, logging again fills in the same MLflow run
    monkeypatch.setenv("W2C_SIMILARITY_MODEL", str(model))
    result = runner.invoke(
        app, ["--db", db_url, "mlflow", "log-run", str(first["run_id"]), "--uri", store, "--json"]
    )
    assert result.exit_code == 0, result.stderr
    second = json.loads(result.stdout)
    assert second["mlflow_run_id"] == first["mlflow"][0]["mlflow_run_id"]
    run = client(store).get_run(second["mlflow_run_id"])
    assert "w2c.critictool_metrics" not in run.data.tags  # the stale reason is gone
    logged = run.data.metrics
    doc = CriticToolMetricsService(services.store).compute(
        run_id=first["run_id"], similarity=SentenceSimilarity(model, device="cpu")
    )
    expected = critictool_metrics(doc)
    assert expected["critictool.internal.means.samples"] == 21
    assert expected["critictool.external_skip.means.samples"] == 7
    assert "critictool.overall_skip" in expected
    assert {k: v for k, v in logged.items() if k.startswith("critictool.")} == pytest.approx(
        expected
    )
