"""Logging a `TrackedRun` to MLflow (the `mlflow` extra) with its client, no global state.

The only module that imports mlflow. A run is found again by its `w2c.key` tag: logging the same
key twice updates the one MLflow run (new parameters added, metrics logged at the next step,
artifacts replaced) instead of creating a second; children are found the same way under their
parent. Every failure becomes a `TrackingError` naming the URI; an http server that is down
fails within seconds (MLflow's own retries are capped here unless the user set them).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

import mlflow
from mlflow import MlflowClient
from mlflow.entities import AssessmentSource, Metric, Param, RunTag
from mlflow.exceptions import MlflowException

from w2c_tui.domain.tracking import (
    KEY_TAG,
    LabelTrace,
    LoggedRun,
    TracesLogged,
    TrackedRun,
    TrackingError,
    is_file_store,
    run_page,
)

DIGEST_TAG = "w2c.digest"
"""A trace's content digest (a trace whose labels changed is replaced)."""
STEP_TAG = "w2c.log_step"
"""How many times the run was logged before (the step of its metrics)."""
FAST_FAIL = {
    "MLFLOW_HTTP_REQUEST_MAX_RETRIES": "1",
    "MLFLOW_HTTP_REQUEST_BACKOFF_FACTOR": "1",
    "MLFLOW_HTTP_REQUEST_TIMEOUT": "20",
}
"""A tracking server that is down must not hold a run for minutes (MLflow retries 7 times with
backoff by default); set in the environment only where the user has not set them."""
T = TypeVar("T")


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _client(uri: str) -> MlflowClient:
    # MLflow's own INFO lines (creating its tables…) are not ours to print
    for name in ("mlflow", "alembic"):
        logging.getLogger(name).setLevel(logging.WARNING)
    for name, value in FAST_FAIL.items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")  # nothing leaves but the log
    # MLflow prints "View run … at" on stdout, where our --json goes: we say where ourselves
    os.environ["MLFLOW_SUPPRESS_PRINTING_URL_TO_STDOUT"] = "true"
    if is_file_store(uri):
        # the user asked for a file store by its URI; MLflow 3 refuses it unless opted in
        os.environ.setdefault("MLFLOW_ALLOW_FILE_STORE", "true")
    return MlflowClient(tracking_uri=uri)


def _experiment(client: MlflowClient, name: str, artifact_location: str | None) -> str:
    found = client.get_experiment_by_name(name)
    if found is not None:
        if found.lifecycle_stage == "deleted":
            client.restore_experiment(found.experiment_id)
        return str(found.experiment_id)
    try:
        return str(client.create_experiment(name, artifact_location=artifact_location))
    except MlflowException:
        again = client.get_experiment_by_name(name)  # another process made it meanwhile
        if again is None:
            raise
        return str(again.experiment_id)


def _find(client: MlflowClient, experiment_id: str, key: str) -> Any:
    runs = client.search_runs(
        [experiment_id], filter_string=f"tags.`{KEY_TAG}` = '{key}'", max_results=1
    )
    return runs[0] if runs else None


def _log_one(
    client: MlflowClient, experiment_id: str, run: TrackedRun, parent: str | None
) -> tuple[str, bool]:
    existing = _find(client, experiment_id, run.key)
    tags = {**run.tags, KEY_TAG: run.key}
    if parent is not None:
        tags["mlflow.parentRunId"] = parent
    if existing is None:
        created = client.create_run(experiment_id, run_name=run.name, tags=tags)
        run_id, step, have = str(created.info.run_id), 0, {}
    else:
        run_id = str(existing.info.run_id)
        step = int(existing.data.tags.get(STEP_TAG, "0")) + 1
        have = dict(existing.data.params)
        for stale in existing.data.tags:  # a reason that no longer holds ("not computed: …")
            if stale.startswith("w2c.") and stale not in tags and stale != STEP_TAG:
                client.delete_tag(run_id, stale)
    now = int(time.time() * 1000)
    params = [Param(k, v) for k, v in run.params.items() if k not in have]
    metrics = [Metric(k, float(v), now, step) for k, v in run.metrics.items()]
    all_tags = [RunTag(k, v) for k, v in {**tags, STEP_TAG: str(step)}.items()]
    for part in _chunks(params, 100):
        client.log_batch(run_id, params=list(part))
    for tag_part in _chunks(all_tags, 100):
        client.log_batch(run_id, tags=list(tag_part))
    for metric_part in _chunks(metrics, 1000):
        client.log_batch(run_id, metrics=list(metric_part))
    for name, text in run.artifacts.items():
        client.log_text(run_id, text, name)
    client.set_terminated(run_id, "FINISHED")
    return run_id, existing is not None


def log_tracked(
    uri: str, experiment: str, run: TrackedRun, *, artifact_location: str | None = None
) -> LoggedRun:
    """Log `run` (and its children, as child runs) to the experiment `experiment` at `uri`."""
    try:
        client = _client(uri)
        experiment_id = _experiment(client, experiment, artifact_location)
        run_id, updated = _log_one(client, experiment_id, run, None)
        children = tuple(_log_one(client, experiment_id, c, run_id)[0] for c in run.children)
    except TrackingError:
        raise
    except Exception as error:  # the client raises MlflowException, requests' and OS errors
        raise TrackingError(f"MLflow at {uri} did not take the log: {_short(error)}") from error
    return LoggedRun(experiment_id, run_id, run_page(uri, experiment_id, run_id), children, updated)


def read_run(uri: str, run_id: str) -> Mapping[str, Any]:
    """A logged run as MLflow holds it (params, metrics, tags, artifact paths): for checks."""
    client = _client(uri)
    got = client.get_run(run_id)
    paths = [a.path for a in client.list_artifacts(run_id)]
    return {
        "name": got.info.run_name,
        "experiment_id": got.info.experiment_id,
        "params": dict(got.data.params),
        "metrics": dict(got.data.metrics),
        "tags": dict(got.data.tags),
        "artifacts": paths,
    }


def _short(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return (text[:300] + "…") if len(text) > 300 else text or type(error).__name__


def log_label_traces(
    uri: str,
    experiment: str,
    run: TrackedRun,
    traces: Sequence[LabelTrace],
    *,
    artifact_location: str | None = None,
) -> TracesLogged:
    """Log `run`, then one trace per labelled response linked to it, each with its readings
    as assessments (MLflow 3). A trace already there with the same content is left; one whose
    labels changed is replaced (deleted, written again)."""
    # a trace must be stored before assessments can refer to it: export synchronously
    os.environ["MLFLOW_ENABLE_ASYNC_TRACE_LOGGING"] = "false"
    try:
        client = _client(uri)
        mlflow.set_tracking_uri(uri)  # log_feedback and log_expectation use the global URI
        experiment_id = _experiment(client, experiment, artifact_location)
        run_id, updated = _log_one(client, experiment_id, run, None)
        have = _existing_traces(client, experiment_id, run_id)
        written = unchanged = replaced = 0
        for trace in traces:
            digest = trace.digest()
            old = have.get(trace.key)
            if old is not None and old[1] == digest:
                unchanged += 1
                continue
            if old is not None:
                client.delete_traces(experiment_id, trace_ids=[old[0]])
                replaced += 1
            _write_trace(client, experiment_id, run_id, trace, digest)
            written += 1
    except TrackingError:
        raise
    except Exception as error:
        raise TrackingError(
            f"MLflow at {uri} did not take the label traces: {_short(error)} (assessments "
            "need an MLflow 3 store that keeps traces)"
        ) from error
    logged = LoggedRun(experiment_id, run_id, run_page(uri, experiment_id, run_id), (), updated)
    return TracesLogged(logged, written, unchanged, replaced)


def _existing_traces(
    client: MlflowClient, experiment_id: str, run_id: str
) -> dict[str, tuple[str, str]]:
    """unit key → (trace id, digest) of the traces already linked to the labels run."""
    out: dict[str, tuple[str, str]] = {}
    token = None
    while True:
        page = client.search_traces(
            locations=[experiment_id],
            run_id=run_id,
            max_results=500,
            include_spans=False,
            page_token=token,
        )
        for trace in page:
            tags = trace.info.tags
            if KEY_TAG in tags:
                out[tags[KEY_TAG]] = (trace.info.trace_id, tags.get(DIGEST_TAG, ""))
        token = page.token
        if not token:
            return out


def _write_trace(
    client: MlflowClient, experiment_id: str, run_id: str, trace: LabelTrace, digest: str
) -> None:
    tags = {**trace.tags, KEY_TAG: trace.key, DIGEST_TAG: digest}
    span = client.start_trace(
        "w2c-response",
        inputs=dict(trace.inputs),
        tags=tags,
        experiment_id=experiment_id,
        run_id=run_id,
    )
    client.end_trace(span.trace_id, outputs=dict(trace.outputs))
    for a in trace.assessments:
        source = AssessmentSource(source_type=a.source_type, source_id=a.source_id)
        if a.expectation:
            mlflow.log_expectation(
                trace_id=span.trace_id, name=a.name, value=a.value, source=source
            )
        else:
            mlflow.log_feedback(
                trace_id=span.trace_id,
                name=a.name,
                value=a.value,
                source=source,
                rationale=a.rationale,
            )
