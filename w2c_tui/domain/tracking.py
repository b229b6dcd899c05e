"""Experiment tracking (MLflow, the `mlflow` extra): what is logged, where, and what the
database remembers about it.

A logged thing is a `TrackedRun`: parameters, tags, metrics and text artifacts, with child runs
(a run's repeats). Its `key` goes to the tracking server as the tag `w2c.key`, and the database
records what was logged under which key and URI: logging the same thing twice updates the one
MLflow run instead of making a second. Nothing here imports mlflow.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from urllib.parse import urlsplit

from w2c_tui.domain.errors import W2CError

TRACKING_ENV = "W2C_MLFLOW_TRACKING_URI"
"""The tracking URI `--mlflow` without a value uses (else the local store in exports/mlruns)."""
KEY_TAG = "w2c.key"
"""The tag that identifies what a logged MLflow run holds (idempotent logging)."""
MAX_KEY = 250
"""MLflow's longest parameter, metric and tag name."""
MAX_PARAM = 6000
"""MLflow's longest parameter value."""


class TrackingSubject(StrEnum):
    """What a logged MLflow run holds."""

    RUN = "run"
    AGREEMENT = "agreement"
    REPORT = "report"
    LABELS = "labels"
    """The human labels as assessments on traces of the labelled responses."""


class TrackingStatus(StrEnum):
    """Where logging one thing stands."""

    REQUESTED = "requested"
    """`run start --mlflow`: the worker logs the run when it ends."""
    LOGGED = "logged"
    FAILED = "failed"
    """The tracking server refused or was down; `w2c mlflow log-run` catches up."""


class TrackingError(W2CError):
    """A tracking URI that cannot be used, or a tracking server that did not take the log."""


@dataclass(frozen=True)
class TrackingRecord:
    """What the database remembers about logging one thing to one tracking URI."""

    subject: TrackingSubject
    ref: str
    """The run's id, or the digest of the agreement document or report."""
    dataset: str
    tracking_uri: str
    status: TrackingStatus
    run_id: int | None = None
    experiment_id: str | None = None
    mlflow_run_id: str | None = None
    url: str | None = None
    """The MLflow UI page of the logged run (http URIs only)."""
    digest: str | None = None
    """The digest of what was logged last (logging unchanged content again does nothing)."""
    error: str | None = None
    requested_at: datetime | None = None
    logged_at: datetime | None = None

    @property
    def where(self) -> str:
        """Where it went, for a table cell: the UI page, else the store and the run id."""
        if self.url:
            return self.url
        if self.mlflow_run_id:
            return f"{self.tracking_uri} run {self.mlflow_run_id}"
        return self.tracking_uri


@dataclass(frozen=True)
class TrackedRun:
    """One MLflow run to log: names ≤ 250 characters, values as MLflow takes them."""

    name: str
    key: str
    params: Mapping[str, str] = field(default_factory=dict)
    tags: Mapping[str, str] = field(default_factory=dict)
    metrics: Mapping[str, float] = field(default_factory=dict)
    artifacts: Mapping[str, str] = field(default_factory=dict)
    """File name → text (JSONL verdicts, the run's log, the report's HTML…)."""
    children: tuple[TrackedRun, ...] = ()

    def digest(self) -> str:
        """sha256 (first 16 hex) of everything logged, children included."""
        return hashlib.sha256(self._canonical().encode("utf-8")).hexdigest()[:16]

    def _canonical(self) -> str:
        return json.dumps(
            {
                "name": self.name,
                "key": self.key,
                "params": dict(self.params),
                "tags": dict(self.tags),
                "metrics": dict(self.metrics),
                "artifacts": {
                    k: hashlib.sha256(v.encode()).hexdigest() for k, v in self.artifacts.items()
                },
                "children": [c._canonical() for c in self.children],
            },
            sort_keys=True,
        )

    def walk(self) -> Iterator[TrackedRun]:
        """This run, then its children."""
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class Assessment:
    """One reading of a response as MLflow 3 keeps it on a trace: a person's label or a
    judge's verdict (feedback), or the gold label (an expectation)."""

    name: str
    value: str
    source_type: str
    """HUMAN or LLM_JUDGE (MLflow's AssessmentSourceType)."""
    source_id: str
    expectation: bool = False
    rationale: str | None = None


@dataclass(frozen=True)
class LabelTrace:
    """A labelled response as an MLflow trace: the question in, the response out, and every
    reading of it as an assessment. `key` names the unit (`uuid@model`)."""

    key: str
    inputs: Mapping[str, object]
    outputs: Mapping[str, object]
    tags: Mapping[str, str]
    assessments: tuple[Assessment, ...]

    def digest(self) -> str:
        """sha256 (first 16 hex) of the trace's content (a changed label changes it)."""
        return content_digest(
            {
                "inputs": self.inputs,
                "outputs": self.outputs,
                "tags": self.tags,
                "assessments": [vars_of(a) for a in self.assessments],
            }
        )


def vars_of(assessment: Assessment) -> dict[str, object]:
    """An assessment as a plain dict."""
    return {
        "name": assessment.name,
        "value": assessment.value,
        "source_type": assessment.source_type,
        "source_id": assessment.source_id,
        "expectation": assessment.expectation,
        "rationale": assessment.rationale,
    }


@dataclass(frozen=True)
class TracesLogged:
    """What logging label traces did."""

    run: LoggedRun
    written: int
    unchanged: int
    replaced: int


@dataclass(frozen=True)
class LoggedRun:
    """Where a TrackedRun landed."""

    experiment_id: str
    run_id: str
    url: str | None
    children: tuple[str, ...] = ()
    """The child runs' ids, in the TrackedRun's order."""
    updated: bool = False
    """It was found by its key and updated, not created."""


_NAME = re.compile(r"[^A-Za-z0-9_\-. /]")


def metric_name(*parts: str) -> str:
    """An MLflow metric or tag name from parts: joined by '.', characters MLflow refuses as '_'
    (rater keys have ':' and '@'), at most 250 characters."""
    return _NAME.sub("_", ".".join(p for p in parts if p))[:MAX_KEY]


def param_value(value: object) -> str:
    """A parameter value as text (JSON for containers), cut to MLflow's limit with a marker."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= MAX_PARAM else text[: MAX_PARAM - 12] + "…[truncated]"


def estimate_metrics(name: str, value: object) -> dict[str, float]:
    """An estimate object (`{"value","ci","n",…}`) as metrics: `name`, `name_ci_low`,
    `name_ci_high`, `name_n`; a value that is not defined gives none (not a 0.0, which the
    API suite logs for an undefined rate and we do not)."""
    if not isinstance(value, Mapping) or "value" not in value:
        return {}
    out: dict[str, float] = {}
    v = value.get("value")
    if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(float(v)):
        out[name] = float(v)
        ci = value.get("ci")
        if (
            isinstance(ci, list | tuple)
            and len(ci) == 2
            and all(isinstance(c, int | float) and math.isfinite(float(c)) for c in ci)
        ):
            out[f"{name}_ci_low"] = float(ci[0])
            out[f"{name}_ci_high"] = float(ci[1])
    n = value.get("n")
    if isinstance(n, int) and not isinstance(n, bool):
        out[f"{name}_n"] = float(n)
    return out


def flatten_estimates(doc: object, prefix: str = "") -> dict[str, float]:
    """Every estimate object and plain finite number in a JSON document as metrics, named by
    their path (`judges.judge_acme.cohen_kappa_ci_low`); lists of objects are named by their
    `key` (or `rater`, `name`), else by position."""
    out: dict[str, float] = {}
    if isinstance(doc, Mapping):
        if "value" in doc and "ci" in doc:
            return estimate_metrics(metric_name(prefix), doc)
        for k, v in doc.items():
            out.update(flatten_estimates(v, metric_name(prefix, str(k))))
    elif isinstance(doc, list | tuple):
        for i, v in enumerate(doc):
            label = str(i)
            if isinstance(v, Mapping):
                for name in ("key", "rater", "name"):
                    if isinstance(v.get(name), str):
                        label = str(v[name])
                        break
            out.update(flatten_estimates(v, metric_name(prefix, label)))
    elif (
        isinstance(doc, int | float)
        and not isinstance(doc, bool)
        and math.isfinite(float(doc))
        and prefix
    ):
        out[metric_name(prefix)] = float(doc)
    return out


def default_tracking_uri(exports: Path) -> str:
    """A bare `--mlflow`: the local store in `exports/mlruns`. MLflow 3 refuses its old file
    store unless told otherwise (it is in maintenance mode), so the folder holds MLflow's own
    recommended local backend, a SQLite file, with the artifacts beside it."""
    return f"sqlite:///{(exports / 'mlruns' / 'mlflow.db').resolve()}"


def resolve_tracking_uri(given: str | None, env: Mapping[str, str], exports: Path) -> str:
    """The URI to log to: `given`, else W2C_MLFLOW_TRACKING_URI, else the local store.

    A URI with a user name or password in it is refused: it would be stored in the database
    and shown on screen; MLflow reads MLFLOW_TRACKING_USERNAME / _PASSWORD / _TOKEN instead.
    A plain path means a file store there (MLflow's `file:` scheme).
    """
    uri = (given or "").strip() or env.get(TRACKING_ENV, "").strip()
    if not uri:
        return default_tracking_uri(exports)
    parts = urlsplit(uri)
    if parts.username or parts.password:
        raise TrackingError(
            f"the MLflow tracking URI {parts.scheme}://…@{parts.hostname} has a user name or "
            "password in it; give the URI without them and set MLFLOW_TRACKING_USERNAME and "
            "MLFLOW_TRACKING_PASSWORD (or MLFLOW_TRACKING_TOKEN), which never reach the database"
        )
    if parts.scheme in ("", "file") or (len(parts.scheme) == 1 and uri[1:3] == ":\\"):
        path = Path(parts.path if parts.scheme == "file" else uri).expanduser().resolve()
        return path.as_uri()
    if parts.scheme not in (
        "http",
        "https",
        "sqlite",
        "postgresql",
        "mysql",
        "mssql",
        "databricks",
    ):
        raise TrackingError(
            f"the MLflow tracking URI {uri!r} has a scheme MLflow does not track to "
            "(http(s)://host:port, sqlite:///path, file:///path, or a folder)"
        )
    return uri


def is_file_store(uri: str) -> bool:
    """Whether `uri` is MLflow's (deprecated) file store."""
    return urlsplit(uri).scheme == "file"


def artifact_root(uri: str) -> str | None:
    """Where a local store's experiments keep their artifacts (beside the SQLite file, in
    `artifacts/`); None for a server or a file store (they decide themselves)."""
    parts = urlsplit(uri)
    if parts.scheme != "sqlite":
        return None
    path = Path(uri.removeprefix("sqlite:///"))
    return (path.parent / "artifacts").as_uri() if path.name else None


def run_page(uri: str, experiment_id: str, run_id: str) -> str | None:
    """The MLflow UI page of a run on an http(s) tracking server; None for local stores."""
    if urlsplit(uri).scheme not in ("http", "https"):
        return None
    return f"{uri.rstrip('/')}/#/experiments/{experiment_id}/runs/{run_id}"


def content_digest(doc: object) -> str:
    """sha256 (first 16 hex) of a JSON document, keys sorted."""
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
