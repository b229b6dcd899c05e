"""Runs, agreement decisions and reports logged to MLflow (the `mlflow` extra).

What goes where (docs/runs.md has the layout): one experiment per dataset, named after it.

- A run is the MLflow run `w2c-run-<id>`: parameters = its configuration (method, backend,
  model, template and its hash, judge prompt and its hash, seed, repeats, fingerprint…), tags =
  w2c's version, the database backend and the host, metrics = the When2Call metrics of the run's
  readings against gold, each with `_ci_low` / `_ci_high` / `_n` (a metric that is not defined is
  left out, not logged as 0), for CriticTool runs the official metrics; artifacts = the verdicts
  (`verdicts.jsonl`) and the run's log. With `--repeats K` each repeat is a child run
  (`w2c-run-<id>-repeat-<k>`, its metrics) and the stability metrics go on the parent.
- The agreement decision document (`w2c agreement --json`) is the run `w2c-agreement-<dataset>`:
  the humans' α, each judge's κ, per class, with intervals, the stand-in decisions as tags.
- A report is the run `w2c-report-<dataset>` with the HTML as its artifact.

Logging never fails a run: the worker logs at the end and a tracking server that is down leaves
a warning in the run's log and a `failed` record that `w2c mlflow log-run` catches up. The
database records what went where (`tracking_log`); logging the same thing again updates the
same MLflow run (found by its `w2c.key` tag), and logging unchanged content does nothing.
Secrets never go: the API key named by the run and the database password are scrubbed from
every parameter, tag and artifact, and a tracking URI with credentials is refused.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import socket
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from w2c_tui import __version__
from w2c_tui.db.store import Store
from w2c_tui.domain.dashboard import Against, CriticToolMetricsDoc, JudgesDoc
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.labels import RaterKind, VerdictStatus
from w2c_tui.domain.review import UnitKind
from w2c_tui.domain.run_config import COMMON_FIELDS
from w2c_tui.domain.runs import Method, RunConfig, RunStatus
from w2c_tui.domain.tracking import (
    Assessment,
    LabelTrace,
    LoggedRun,
    TracesLogged,
    TrackedRun,
    TrackingError,
    TrackingRecord,
    TrackingStatus,
    TrackingSubject,
    artifact_root,
    content_digest,
    estimate_metrics,
    flatten_estimates,
    metric_name,
    param_value,
    resolve_tracking_uri,
)
from w2c_tui.io.exporters.records import records_text
from w2c_tui.io.exporters.run_results import result_records
from w2c_tui.paths import exports_dir
from w2c_tui.runs.runlog import public_db_url
from w2c_tui.services.metrics import rater_metrics
from w2c_tui.services.readings import Readings, stored_readings
from w2c_tui.services.run_worker import run_secrets
from w2c_tui.stats.metric_intervals import IntervalSettings

Logger = Callable[[str, TrackedRun], LoggedRun]
"""(experiment, run) → where it landed; the default is io.mlflow_tracker.log_tracked."""
TraceLogger = Callable[[str, TrackedRun, list[LabelTrace]], TracesLogged]
"""(experiment, run, traces) → what was written; the default is log_label_traces."""
LABEL_NAME = "when2call_behaviour"
"""The name of every assessment: the When2Call behaviour of the response."""
METRIC_KEYS = (
    "accuracy",
    "accuracy_norm",
    "macro_f1_ref",
    "macro_f1_4",
    "macro_f1_no_direct",
    "invalid_rate",
    "tool_hallucination",
    "answer_hallucination",
    "parameter_hallucination",
)
"""The plain values logged where no interval is (an interval's metric carries its own)."""


def _mlflow_traces(uri: str) -> TraceLogger:
    try:
        from w2c_tui.io.mlflow_tracker import log_label_traces
    except ImportError as error:
        raise TrackingError(
            f"MLflow logging needs the mlflow extra: pip install 'w2c-tui[mlflow]' ({error})"
        ) from error
    location = artifact_root(uri)

    def log(experiment: str, run: TrackedRun, traces: list[LabelTrace]) -> TracesLogged:
        return log_label_traces(uri, experiment, run, traces, artifact_location=location)

    return log


def _mlflow_logger(uri: str) -> Logger:
    # imported here: mlflow is an optional extra and takes a second to import
    try:
        from w2c_tui.io.mlflow_tracker import log_tracked
    except ImportError as error:
        raise TrackingError(
            f"MLflow logging needs the mlflow extra: pip install 'w2c-tui[mlflow]' ({error})"
        ) from error
    location = artifact_root(uri)

    def log(experiment: str, run: TrackedRun) -> LoggedRun:
        return log_tracked(uri, experiment, run, artifact_location=location)

    return log


class TrackingService:
    """Plans what to log, logs it, and remembers where it went."""

    def __init__(
        self,
        store: Store,
        db_url: str,
        logger_for: Callable[[str], Logger] = _mlflow_logger,
        traces_for: Callable[[str], TraceLogger] = _mlflow_traces,
    ) -> None:
        self._store = store
        self._db_url = db_url
        self._logger_for = logger_for
        self._traces_for = traces_for

    # ---- where ---------------------------------------------------------------------------

    @staticmethod
    def resolve(uri: str | None) -> str:
        """The tracking URI: `uri`, else W2C_MLFLOW_TRACKING_URI, else exports/mlruns."""
        return resolve_tracking_uri(uri, os.environ, exports_dir())

    def records(self, dataset: str | None = None) -> list[TrackingRecord]:
        """What was logged (of one dataset), newest first."""
        return self._store.tracking.all(dataset)

    def for_runs(self, run_ids: list[int]) -> dict[int, list[TrackingRecord]]:
        """The tracking records of these runs, by run id."""
        return self._store.tracking.for_runs(run_ids)

    # ---- runs ----------------------------------------------------------------------------

    def request_run(self, run_id: int, uri: str | None) -> TrackingRecord:
        """Ask for run `run_id` to be logged when its worker ends (`run start --mlflow`)."""
        info = self._store.runs.get(run_id)
        return self._store.tracking.save(
            TrackingRecord(
                subject=TrackingSubject.RUN,
                ref=str(run_id),
                dataset=info.config.dataset,
                tracking_uri=self.resolve(uri),
                status=TrackingStatus.REQUESTED,
                run_id=run_id,
                requested_at=datetime.now(UTC),
            )
        )

    def log_requested(self, run_id: int, log: logging.Logger) -> None:
        """The worker's last step: log the run wherever it was asked to go (again after a
        resume). Never raises: a failure is a warning in the run's log and a `failed`
        record."""
        for record in self._store.tracking.for_run(run_id):
            # a run logged before and resumed since is updated (unchanged content: nothing sent)
            try:
                done = self.log_run(run_id, record.tracking_uri)
            except Exception as error:  # logging must never fail the run
                log.warning(
                    "MLflow: run %d was not logged to %s: %s; `w2c mlflow log-run %d --uri %s` "
                    "catches up",
                    run_id,
                    record.tracking_uri,
                    error,
                    run_id,
                    record.tracking_uri,
                )
            else:
                log.info("MLflow: run %d logged to %s", run_id, done.where)

    def log_run(self, run_id: int, uri: str | None) -> TrackingRecord:
        """Log run `run_id` (or update what was logged); TrackingError if the server did not
        take it (recorded as `failed`)."""
        info = self._store.runs.get(run_id)
        if info.status in (RunStatus.PENDING, RunStatus.RUNNING, RunStatus.CANCELLING):
            raise W2CError(
                f"run {run_id} is {info.status.value}: log it when it has ended "
                f"(`w2c run start --mlflow` logs it as it ends)"
            )
        target = self.resolve(uri)
        plan = self.run_plan(run_id)
        return self._log(
            TrackingSubject.RUN, str(run_id), info.config.dataset, target, plan, run_id
        )

    def run_plan(self, run_id: int) -> TrackedRun:
        """What logging run `run_id` sends (see the module docstring)."""
        info = self._store.runs.get(run_id)
        describe = self._store.runs.describe(run_id)
        secrets = run_secrets(self._db_url, info.config)
        config = info.config
        common = {k: v for k, v in config.as_json().items() if k in COMMON_FIELDS}
        params: dict[str, object] = {
            **common,
            **config.options.as_json(),
            "fingerprint": info.fingerprint or "",
            "rater": info.rater or "",
            "template_hash": describe.get("template_hash", ""),
            "judge_prompt_version": describe.get("judge_prompt_version", ""),
            "mcq_prompt_version": describe.get("mcq_prompt_version", ""),
        }
        for name in ("model_revision", "model_sha", "transformers", "torch", "device", "dtype"):
            if name in describe:
                params[f"describe.{name}"] = describe[name]
        tags = {
            **self._common_tags(),
            "w2c.run_id": str(run_id),
            "w2c.status": info.status_text,
            "w2c.fingerprint": info.fingerprint or "",
            "w2c.dataset": config.dataset,
            "w2c.method": config.method.value,
            "mlflow.note.content": _describe_run(run_id, info.status_text, config),
        }
        metrics: dict[str, float] = {
            "tasks_total": float(info.n_total),
            "tasks_done": float(info.n_done),
            "tasks_error": float(info.n_error),
        }
        children: list[TrackedRun] = []
        key = f"run-{info.fingerprint or 'none'}-{run_id}"
        if info.rater and config.method in (Method.JUDGE, Method.MCQ_LOGPROB, Method.MCQ_INDEX):
            readings = stored_readings(self._store.ratings, config.dataset, UnitKind.BEHAVIOUR)
            rater = next((r for r in readings.raters if r.key == info.rater), None)
            if rater is None:
                tags["w2c.metrics"] = "not computed: the run's rater has no readings stored"
            else:
                doc = self._metrics(readings, rater.key, config.target_model, config.seed)
                if doc is None:
                    tags["w2c.metrics"] = "not computed: no unit has both gold and a reading"
                else:
                    metrics.update(_metrics_of(doc, tags))
                    stab = doc.get("stability")
                    if isinstance(stab, Mapping):
                        metrics.update(_stability_of(stab))
                for k in range(config.repeats if config.repeats > 1 else 0):
                    child = self._metrics(
                        _repeat(readings, rater.key, k), rater.key, config.target_model, config.seed
                    )
                    children.append(
                        TrackedRun(
                            name=f"w2c-run-{run_id}-repeat-{k}",
                            key=f"{key}-repeat-{k}",
                            params={"repeat": str(k), "seed": str((config.seed or 0) + k)},
                            tags={**tags, "w2c.repeat": str(k)},
                            metrics=_metrics_of(child, {}) if child is not None else {},
                        )
                    )
        elif config.method is Method.GENERATE:
            tags["w2c.metrics"] = (
                "a generation run makes responses: judge them (`w2c run start --method judge "
                f"--target-model {config.model}`) for their When2Call metrics"
            )
        elif config.method is Method.CRITICTOOL:
            metrics.update(self._critictool(run_id, tags))
        artifacts = {
            "verdicts.jsonl": records_text(
                result_records(self._store.runs.results(run_id), "jsonl")[0], "jsonl"
            ),
        }
        log_text = _read_log(info.log_path)
        if log_text is not None:
            artifacts[f"w2c-run-{run_id}.log"] = log_text
        return _scrubbed(
            TrackedRun(
                name=f"w2c-run-{run_id}",
                key=key,
                params={metric_name(k): param_value(v) for k, v in params.items()},
                tags=tags,
                metrics=metrics,
                artifacts=artifacts,
                children=tuple(children),
            ),
            secrets,
        )

    def _metrics(
        self, readings: Readings, rater_key: str, target_model: str | None, seed: int | None
    ) -> dict[str, Any] | None:
        rater = readings.rater(rater_key)
        models = {u.target_model for u in readings.units if (u.key, rater_key) in readings.values}
        model = target_model if target_model in models else None
        result = rater_metrics(
            readings,
            rater,
            Against.GOLD,
            target_model=model if len(models) != 1 else next(iter(models)),
            settings=IntervalSettings(B=1000, seed=seed or 0),
        )
        return result.as_json() if result is not None else None

    def _critictool(self, run_id: int, tags: dict[str, str]) -> dict[str, float]:
        from w2c_tui.services.critictool_metrics import CriticToolMetricsService

        try:
            doc = CriticToolMetricsService(self._store).compute(run_id=run_id)
        except W2CError as error:
            tags["w2c.critictool_metrics"] = f"not computed: {error}"[:5000]
            return {}
        return critictool_metrics(doc)

    # ---- agreement and reports -----------------------------------------------------------

    def log_agreement(self, dataset: str, uri: str | None, judges: JudgesDoc) -> TrackingRecord:
        """Log the agreement decision document (`w2c agreement --json`) as its own run."""
        target = self.resolve(uri)
        document: dict[str, Any] = judges.as_json()
        meta: dict[str, Any] = dict(document.get("meta") or {})
        digest = content_digest(_stable(document))
        tags = {**self._common_tags(), "w2c.dataset": dataset, "w2c.kind": "agreement"}
        for judge in document.get("judges") or ():
            if isinstance(judge, Mapping) and isinstance(judge.get("stand_in"), Mapping):
                decision = judge["stand_in"]
                tags[metric_name("w2c.stand_in", str(judge.get("key")))] = str(
                    decision.get("decision")
                )
        params = {
            "dataset": dataset,
            "dataset_sha256": meta.get("sha256") or "",
            "unit_kind": meta.get("unit_kind") or "",
            "min_humans": meta.get("min_humans"),
            "invalid_mode": meta.get("invalid_mode") or "",
            "bootstrap": (meta.get("bootstrap") or {}),
            "raters": meta.get("raters") or [],
            "n_units": meta.get("n_units"),
        }
        metrics = flatten_estimates(
            {"humans": document.get("humans"), "judges": document.get("judges")}
        )
        plan = TrackedRun(
            name=f"w2c-agreement-{dataset}",
            key=f"agreement-{digest}",
            params={k: param_value(v) for k, v in params.items()},
            tags=tags,
            metrics=metrics,
            artifacts={
                "agreement.json": _json(document),
                "decisions.md": _decisions(dataset, document),
            },
        )
        return self._log(TrackingSubject.AGREEMENT, digest, dataset, target, plan, None, digest)

    def log_report(
        self, dataset: str, uri: str | None, html: str, path: Path, basis: object
    ) -> TrackingRecord:
        """Log a written report (`w2c report --mlflow`) as its own run; `basis` is the
        document it was rendered from (the same numbers give the same run)."""
        target = self.resolve(uri)
        digest = content_digest({"basis": _stable(basis), "format": path.suffix})
        plan = TrackedRun(
            name=f"w2c-report-{dataset}",
            key=f"report-{digest}",
            params={"dataset": dataset, "file": path.name},
            tags={**self._common_tags(), "w2c.dataset": dataset, "w2c.kind": "report"},
            artifacts={path.name: html},
        )
        return self._log(TrackingSubject.REPORT, digest, dataset, target, plan, None, digest)

    def label_traces(self, dataset: str) -> list[LabelTrace]:
        """Every response a person labelled, as a trace: the question and tools in, the
        response out; each person's label (HUMAN feedback, with the annotator), an
        adjudication (HUMAN feedback, source `adjudicator:<name>`), each judge's verdict
        (LLM_JUDGE feedback, with its raw reply as rationale) and the gold label (an
        expectation), all named `when2call_behaviour`."""
        readings = stored_readings(self._store.ratings, dataset, UnitKind.BEHAVIOUR)
        humans = [r.key for r in readings.humans()]
        item_ids = sorted(
            {
                u.item_id
                for u in readings.units
                if any((u.key, h) in readings.values for h in humans)
            }
        )
        out: list[LabelTrace] = []
        for item_id in item_ids:
            detail = self._store.items.detail(item_id, None)
            item = detail.item
            for response in detail.responses:
                people = [
                    v
                    for v in response.verdicts
                    if v.rater.kind is RaterKind.HUMAN and v.label is not None
                ]
                if not people:
                    continue
                found = [
                    Assessment(LABEL_NAME, v.label.value, "HUMAN", v.rater.name)
                    for v in people
                    if v.label is not None
                ]
                for v in response.verdicts:
                    if v.rater.kind is RaterKind.ADJUDICATOR and v.label is not None:
                        found.append(
                            Assessment(
                                LABEL_NAME, v.label.value, "HUMAN", f"adjudicator:{v.rater.name}"
                            )
                        )
                    elif v.rater.kind is RaterKind.JUDGE and v.status is not VerdictStatus.MISSING:
                        value = v.label.value if v.label is not None else "invalid"
                        found.append(
                            Assessment(
                                LABEL_NAME,
                                value,
                                "LLM_JUDGE",
                                f"{v.rater.kind.value}:{v.rater.name}",
                                rationale=v.raw[:2000] if v.raw else None,
                            )
                        )
                if item.gold is not None:
                    found.append(
                        Assessment(LABEL_NAME, item.gold.value, "HUMAN", "gold", expectation=True)
                    )
                out.append(
                    LabelTrace(
                        key=f"{item.uuid}@{response.target_model}",
                        inputs={
                            "uuid": item.uuid,
                            "question": item.question,
                            "tools": [t.name for t in item.tools],
                        },
                        outputs={
                            "target_model": response.target_model,
                            "response": response.text or "",
                        },
                        tags={"w2c.dataset": dataset, "w2c.target_model": response.target_model},
                        assessments=tuple(found),
                    )
                )
        return out

    def log_labels(self, dataset: str, uri: str | None) -> tuple[TrackingRecord, TracesLogged]:
        """Log the human labels as assessments on traces of the labelled responses, linked
        to the run `w2c-labels-<dataset>` (see label_traces)."""
        target = self.resolve(uri)
        traces = self.label_traces(dataset)
        if not traces:
            raise W2CError(f"no response of {dataset} has a person's label: nothing to log")
        plan = TrackedRun(
            name=f"w2c-labels-{dataset}",
            # one labels run per dataset and database: two databases' labels never mix
            key=f"labels-{content_digest([dataset, public_db_url(self._db_url)])}",
            params={"dataset": dataset},
            tags={**self._common_tags(), "w2c.dataset": dataset, "w2c.kind": "labels"},
            metrics={"labelled_responses": float(len(traces))},
        )
        base = TrackingRecord(
            subject=TrackingSubject.LABELS,
            ref=dataset,
            dataset=dataset,
            tracking_uri=target,
            status=TrackingStatus.FAILED,
        )
        try:
            done = self._traces_for(target)(dataset, plan, traces)
        except TrackingError as error:
            self._store.tracking.save(dataclasses.replace(base, error=str(error)))
            raise
        record = self._store.tracking.save(
            dataclasses.replace(
                base,
                status=TrackingStatus.LOGGED,
                experiment_id=done.run.experiment_id,
                mlflow_run_id=done.run.run_id,
                url=done.run.url,
                digest=content_digest([t.digest() for t in traces]),
                logged_at=datetime.now(UTC),
            )
        )
        return record, done

    # ---- shared --------------------------------------------------------------------------

    def _log(
        self,
        subject: TrackingSubject,
        ref: str,
        dataset: str,
        uri: str,
        plan: TrackedRun,
        run_id: int | None,
        digest: str | None = None,
    ) -> TrackingRecord:
        """Log `plan` unless what was logged last under (subject, ref, uri) had the same
        digest (default: the plan's own; a document's digest leaves out when it was made)."""
        before = self._store.tracking.get(subject, ref, uri)
        digest = digest or plan.digest()
        if (
            before is not None
            and before.status is TrackingStatus.LOGGED
            and before.digest == digest
        ):
            return before  # unchanged since it was logged: nothing to send
        base = TrackingRecord(
            subject=subject,
            ref=ref,
            dataset=dataset,
            tracking_uri=uri,
            status=TrackingStatus.FAILED,
            run_id=run_id,
        )
        try:
            done = self._logger_for(uri)(dataset, plan)
        except TrackingError as error:
            self._store.tracking.save(dataclasses.replace(base, error=str(error)))
            raise
        return self._store.tracking.save(
            dataclasses.replace(
                base,
                status=TrackingStatus.LOGGED,
                experiment_id=done.experiment_id,
                mlflow_run_id=done.run_id,
                url=done.url,
                digest=digest,
                logged_at=datetime.now(UTC),
            )
        )

    def _common_tags(self) -> dict[str, str]:
        return {
            "w2c.version": __version__,
            "w2c.database": self._store.engine.dialect.name,
            "w2c.host": socket.gethostname(),
        }


def _describe_run(run_id: int, status: str, config: RunConfig) -> str:
    """The MLflow run's description (its note): what ran on what, and how to read it."""
    what = {
        Method.JUDGE: f"judge {config.model} on the responses of {config.target_model}",
        Method.MCQ_LOGPROB: f"log-prob MCQ scoring of {config.model}",
        Method.MCQ_INDEX: f"MCQ-index answers of {config.model}",
        Method.GENERATE: f"responses generated by {config.model}",
        Method.CRITICTOOL: f"CriticTool predictions of {config.model}",
        Method.CRITICTOOL_JUDGE: f"CriticTool judge {config.model}",
    }[config.method]
    repeats = f", {config.repeats} repeats (child runs)" if config.repeats > 1 else ""
    return (
        f"w2c-tui run {run_id} ({status}): {what} on dataset {config.dataset} over the "
        f"{config.backend.value} backend{repeats}. Metrics are against gold; each comes with its "
        "95% bootstrap interval over items as `<metric>_ci_low` / `<metric>_ci_high` and its n "
        "as `<metric>_n`; a metric on too few units is left out (see the w2c.undefined.* tags)."
    )


def critictool_metrics(doc: CriticToolMetricsDoc) -> dict[str, float]:
    """The official CriticTool metrics as MLflow metrics: each setting's means (by source,
    mode, CoT: `critictool.internal.means.<metric>`, `critictool.external_skip.means.…`), its
    means by error type and variant, and the paper's overall score; not the per-sample
    records (they stay in the store and `w2c critictool metrics --json`)."""
    out: dict[str, float] = {}
    models = {s.target_model for s in doc.settings}
    for setting in doc.settings:
        name = setting.source if setting.mode is None else f"{setting.source}_{setting.mode}"
        if setting.cot:
            name += "_cot"
        if len(models) > 1:
            name = f"{setting.target_model}.{name}"
        parts = {
            "means": setting.means,
            **{f"error.{k}": v for k, v in setting.by_error_type.items()},
            **{f"variant.{k}": v for k, v in setting.by_variant.items()},
        }
        out.update(flatten_estimates(parts, metric_name("critictool", name)))
        out[metric_name("critictool", name, "unpredicted")] = float(setting.unpredicted)
    for overall in doc.overall:
        name = f"overall_{overall.mode}" + ("_cot" if overall.cot else "")
        if len(models) > 1:
            name = f"{overall.target_model}.{name}"
        if overall.score is not None:
            out[metric_name("critictool", name)] = float(overall.score)
    return out


def _stable(doc: object) -> object:
    """A document without the time it was generated (the same numbers, the same digest)."""
    if isinstance(doc, Mapping) and isinstance(doc.get("meta"), Mapping):
        meta = {k: v for k, v in doc["meta"].items() if k != "generated_at"}
        return {**doc, "meta": meta}
    return doc


def _metrics_of(doc: Mapping[str, Any], tags: dict[str, str] | None = None) -> dict[str, float]:
    """A metrics document's values: each metric with its interval bounds and n where it has
    an interval; one that is not defined (too few units) is left out and, given `tags`, its
    reason goes there as `w2c.undefined.<metric>`; without intervals the plain values."""
    out: dict[str, float] = {}
    intervals = doc.get("intervals") or {}
    for name, estimate in intervals.items():
        out.update(estimate_metrics(name, estimate))
        reason = estimate.get("reason") if isinstance(estimate, Mapping) else None
        if tags is not None and name not in out and reason:
            tags[metric_name("w2c.undefined", name)] = str(reason)
    for name in METRIC_KEYS:
        value = doc.get(name)
        if name in intervals:
            continue
        if isinstance(value, Mapping):
            value = value.get("rate")
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[name] = float(value)
    for name in ("n", "n_valid", "n_invalid", "n_missing"):
        value = doc.get(name)
        if isinstance(value, int):
            out["units" if name == "n" else f"units_{name}"] = float(value)
    return out


def _stability_of(doc: Mapping[str, Any]) -> dict[str, float]:
    values = doc.get("over_processed") or {}
    return {
        metric_name("stability", str(k)): float(v)
        for k, v in values.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }


def _repeat(readings: Readings, rater_key: str, k: int) -> Readings:
    """The readings with the rater's current values replaced by its repeat `k`."""
    values = {key: v for key, v in readings.values.items() if key[1] != rater_key}
    for (unit, rater), samples in readings.samples.items():
        if rater == rater_key and k < len(samples):
            values[(unit, rater)] = samples[k]
    return dataclasses.replace(readings, values=values, samples={}, loglikelihoods={})


def _read_log(path: str | None) -> str | None:
    if not path:
        return None
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _scrub(text: str, secrets: list[str]) -> str:
    for secret in sorted(set(secrets), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _scrubbed(run: TrackedRun, secrets: list[str]) -> TrackedRun:
    """The run with every secret replaced by *** in params, tags and artifacts."""
    if not secrets:
        return run
    return dataclasses.replace(
        run,
        params={k: _scrub(v, secrets) for k, v in run.params.items()},
        tags={k: _scrub(v, secrets) for k, v in run.tags.items()},
        artifacts={k: _scrub(v, secrets) for k, v in run.artifacts.items()},
        children=tuple(_scrubbed(c, secrets) for c in run.children),
    )


def _json(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n"


def _decisions(dataset: str, document: Mapping[str, Any]) -> str:
    """The stand-in decisions in plain words, one per judge (the artifact `decisions.md`)."""
    lines = [f"# Can a judge stand in for the humans? ({dataset})", ""]
    meta = document.get("meta") or {}
    if meta.get("generated_at"):
        lines.append(f"Computed {meta['generated_at']} by w2c-tui {meta.get('w2c_tui', '')}.")
        lines.append("")
    judges = [j for j in document.get("judges") or () if isinstance(j, Mapping)]
    if not judges:
        lines.append("No judge or scorer reads these units.")
    for judge in judges:
        stand_in = judge.get("stand_in") or {}
        lines.append(f"- **{judge.get('key')}**: {stand_in.get('text', 'not defined')}")
        for line in stand_in.get("evidence") or ():
            lines.append(f"  - {line}")
    return "\n".join(lines) + "\n"
