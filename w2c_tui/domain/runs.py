"""Evaluation runs: tasks and results exchanged between the worker and backends, and a run's
record (status, progress, results). Its configuration is domain/run_config.py (re-exported
here: `from w2c_tui.domain.runs import RunConfig` keeps working)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from w2c_tui.domain.critictool import Sample
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.models import Item
from w2c_tui.domain.run_config import Method as Method
from w2c_tui.domain.run_config import RunConfig as RunConfig
from w2c_tui.domain.run_config import RunStartError as RunStartError
from w2c_tui.domain.run_options import Backend as Backend


class RunStatus(StrEnum):
    """A run's life cycle."""

    PENDING = "pending"
    RUNNING = "running"
    CANCELLING = "cancelling"
    CANCELLED = "cancelled"
    DONE = "done"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    """The worker stopped without saying so (killed): `w2c run resume` continues it."""

    @property
    def finished(self) -> bool:
        """No worker will touch it again unless resumed."""
        return self in (
            RunStatus.CANCELLED,
            RunStatus.DONE,
            RunStatus.FAILED,
            RunStatus.INTERRUPTED,
        )


@dataclass(frozen=True)
class Task:
    """One unit of work: an item (and, for a judge, the response to read), one sample."""

    item_id: int
    uuid: str
    question: str
    tools: tuple[str, ...]
    answers: tuple[tuple[str, str], ...]
    gold: Label | None
    sample_index: int = 0
    response_id: int | None = None
    response_text: str | None = None
    critic: Sample | None = None
    """CriticTool runs: the sample (dataset form) the protocol runs on."""
    critictool_rounds: tuple[str, ...] = ()
    """CriticTool judge runs: the judged prediction's replies (empty: the sample alone)."""

    @classmethod
    def of(
        cls,
        item: Item,
        sample_index: int = 0,
        response_id: int | None = None,
        response_text: str | None = None,
    ) -> Task:
        """The task of `item` (and, for a judge, of the response it reads)."""
        return cls(
            item_id=item.id,
            uuid=item.uuid,
            question=item.question,
            tools=tuple(t.raw for t in item.tools),
            answers=item.answers,
            gold=item.gold,
            sample_index=sample_index,
            response_id=response_id,
            response_text=response_text,
        )


@dataclass(frozen=True)
class TaskResult:
    """What a backend produced for a task; an `error` means nothing else is set."""

    task: Task
    response_text: str | None = None
    label: Label | None = None
    status: VerdictStatus | None = None
    raw: str | None = None
    scores: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RunInfo:
    """A run as the front ends show it."""

    id: int
    config: RunConfig
    fingerprint: str | None
    status: RunStatus
    n_total: int
    n_done: int
    n_error: int
    error: str | None
    pid: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    heartbeat_at: datetime | None
    log_path: str | None
    rater: str | None
    host: str | None = None
    worker_started: float | None = None
    """The worker process's start time (psutil's create_time), to tell it from a reused pid."""

    @property
    def progress(self) -> float:
        """Share of tasks done (errors included)."""
        return (self.n_done + self.n_error) / self.n_total if self.n_total else 0.0

    @property
    def status_text(self) -> str:
        """The status as shown: `done with 3 errors` where tasks failed."""
        if self.status is RunStatus.DONE and self.n_error:
            return f"done with {self.n_error} error{'s' if self.n_error != 1 else ''}"
        return self.status.value


@dataclass(frozen=True)
class RunResult:
    """What one task of a run left in the store (`w2c verdicts export`): its item, sample,
    status (ok / invalid / error), the verdict's label and raw reply, a generation's response,
    a log-prob scorer's four log-likelihoods (option order) and readings, or a CriticTool
    judge's answers."""

    uuid: str | None
    position: int | None
    sample_index: int
    status: str
    label: str | None
    raw: str | None
    response: str | None
    error: str | None
    retries: int
    loglikelihoods: tuple[float, ...] | None = None
    """None unless the verdict carries log-likelihoods (log-prob runs)."""
    pred_raw: str | None = None
    pred_norm: str | None = None
    answers: Mapping[str, object] | None = None
    """A CriticTool judge's answers (None for every other run, and for a failed task)."""


@dataclass(frozen=True)
class SpotCheck:
    """One model asked about one item now: its response, the judge's reading, its MCQ choice."""

    model: str
    response: str | None
    judge: TaskResult | None
    mcq: TaskResult | None
    errors: tuple[str, ...] = ()
