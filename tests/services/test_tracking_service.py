"""The tracking service with a recording logger in place of MLflow, on SQLite and PostgreSQL:
the database records what went where, unchanged content is not sent twice, a failure is
recorded and caught up, the agreement document carries each judge's decision, and the plan of
a run holds its configuration, its metrics against gold with intervals, and no secret."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from w2c_tui.domain.tracking import (
    LoggedRun,
    TrackedRun,
    TrackingError,
    TrackingStatus,
    TrackingSubject,
)
from w2c_tui.services import Services
from w2c_tui.services.tracking import TrackingService

URI = "http://127.0.0.1:9/"


class Recorder:
    """A logger that records what it was given and can be told to fail."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, TrackedRun]] = []
        self.down = False

    def __call__(self, uri: str):  # type: ignore[no-untyped-def]
        def log(experiment: str, run: TrackedRun) -> LoggedRun:
            if self.down:
                raise TrackingError(f"MLflow at {uri} did not take the log: refused")
            self.sent.append((experiment, run))
            return LoggedRun("7", f"r{len(self.sent)}", f"{uri}#/experiments/7/runs/r1")

        return log


def test_agreement_logged_once_per_content(demo: Services, tmp_path: Path) -> None:
    recorder = Recorder()
    service = TrackingService(demo.store, demo.url, recorder)
    judges_doc = demo.agreement.judges("demo", bootstrap=50)
    doc = judges_doc.as_json()
    record = service.log_agreement("demo", URI, judges_doc)
    assert record.status is TrackingStatus.LOGGED and record.url and record.digest
    [(experiment, run)] = recorder.sent
    assert experiment == "demo" and run.name == "w2c-agreement-demo"
    judges = [j for j in doc["judges"] if isinstance(j, dict)]
    for judge in judges:
        tag = [v for k, v in run.tags.items() if k.startswith("w2c.stand_in.")]
        assert judge["stand_in"]["decision"] in tag
    assert "decisions.md" in run.artifacts and "agreement.json" in run.artifacts
    # the same numbers computed again (a new generated_at): nothing is sent
    again = demo.agreement.judges("demo", bootstrap=50)
    assert service.log_agreement("demo", URI, again).digest == record.digest
    assert len(recorder.sent) == 1
    [stored] = service.records("demo")
    assert stored.subject is TrackingSubject.AGREEMENT and stored.mlflow_run_id == "r1"


def test_a_failure_is_recorded_then_caught_up(demo: Services) -> None:
    recorder = Recorder()
    service = TrackingService(demo.store, demo.url, recorder)
    recorder.down = True
    with pytest.raises(TrackingError):
        service.log_report("demo", URI, "<html>r</html>", Path("report-demo.html"), {"a": 1})
    [failed] = service.records()
    assert failed.status is TrackingStatus.FAILED and "refused" in (failed.error or "")
    recorder.down = False
    done = service.log_report("demo", URI, "<html>r</html>", Path("report-demo.html"), {"a": 1})
    assert done.status is TrackingStatus.LOGGED and done.error is None
    assert len(service.records()) == 1  # the same row, now logged
    [(_, run)] = recorder.sent
    assert run.artifacts == {"report-demo.html": "<html>r</html>"}


def test_request_then_log_keeps_one_row_per_run_and_uri(demo: Services) -> None:
    recorder = Recorder()
    service = TrackingService(demo.store, demo.url, recorder)
    run_id = demo.runs.create(_judge_config())
    service.request_run(run_id, URI)
    service.request_run(run_id, URI)
    [asked] = demo.runs.tracked([run_id])[run_id]
    assert asked.status is TrackingStatus.REQUESTED
    with pytest.raises(Exception, match="pending"):
        service.log_run(run_id, URI)  # not ended yet


def _judge_config():  # type: ignore[no-untyped-def]
    from w2c_tui.domain.runs import Backend, Method, RunConfig

    return RunConfig.of(
        method=Method.JUDGE,
        backend=Backend.OPENAI,
        model="fake-model",
        dataset="demo",
        target_model="acme-7b-instruct",
        base_url="http://127.0.0.1:9/v1",
    )


def test_no_secret_in_what_a_run_sends(demo: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    key, password = "sk-canary-5a5a5a5a", "pw-canary-7b7b7b"
    monkeypatch.setenv("W2C_TRACKING_TEST_KEY", key)
    config = _judge_config()
    config = config.__class__.of(
        method=config.method,
        backend=config.backend,
        model=config.model,
        dataset="demo",
        target_model="acme-7b-instruct",
        base_url="http://127.0.0.1:9/v1",
        api_key_env="W2C_TRACKING_TEST_KEY",
    )
    run_id = demo.runs.create(config)
    demo.runs.cancel(run_id)
    log = Path(demo.runs.get(run_id).log_path or "")
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(f"a careless line with {key} and postgresql://u:{password}@h/db\n")
    service = TrackingService(demo.store, f"postgresql+psycopg://u:{password}@h/db")
    plan = service.run_plan(run_id)
    everything = json.dumps(
        [
            {"params": dict(r.params), "tags": dict(r.tags), "artifacts": dict(r.artifacts)}
            for r in plan.walk()
        ]
    )
    assert key not in everything and password not in everything
    assert "***" in plan.artifacts[f"w2c-run-{run_id}.log"]
    assert plan.params["api_key_env"] == "W2C_TRACKING_TEST_KEY"
