"""Evaluation runs: configuration, tasks and results exchanged between the worker and backends."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from w2c_tui.domain.critictool import Sample
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.models import Item


class Method(StrEnum):
    """What a run computes."""

    MCQ_LOGPROB = "mcq_logprob"
    GENERATE = "generate"
    JUDGE = "judge"
    MCQ_INDEX = "mcq_index"
    CRITICTOOL = "critictool"
    """CriticTool's inference protocol over a CriticTool dataset (its predictions)."""
    CRITICTOOL_JUDGE = "critictool_judge"
    """An LLM judge answering the CriticTool label questions (critic_label rows of its rater)."""


class Backend(StrEnum):
    """Where the model runs."""

    TRANSFORMERS = "transformers"
    OPENAI = "openai"


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


class RunStartError(W2CError):
    """A run cannot start; the message says what to fix (bad URL, missing key, no model…)."""


ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEY_PREFIXES = ("sk-", "sk_", "hf_", "gsk_", "ghp_", "xai-", "AIza", "pk-", "rk-")


def check_key_env(name: str | None) -> None:
    """RunStartError unless `name` is an environment variable's name: a value that looks like
    an API key itself is refused without being repeated (it must not reach the database)."""
    if name is None:
        return
    looks_like_key = name.startswith(KEY_PREFIXES) or (
        len(name) >= 32 and any(c.islower() for c in name) and any(c.isdigit() for c in name)
    )
    if not ENV_NAME.fullmatch(name) or looks_like_key:
        raise RunStartError(
            "--api-key-env takes the NAME of the environment variable that holds the key "
            "(e.g. OPENAI_API_KEY: letters, digits and _), not the key itself; what was given "
            "looks like a key and was neither stored nor shown"
        )


@dataclass(frozen=True)
class RunConfig:
    """Everything that defines a run; its fingerprint identifies the computation.

    `api_key_env` names the environment variable that holds the key: the key itself is never
    stored. `target_model` is the model whose behaviour is evaluated (for a judge run: the model
    whose responses are judged; `model` is then the judge).
    """

    method: Method
    backend: Backend
    model: str
    dataset: str
    template: str = "when2call-default"
    target_model: str | None = None
    judge_prompt: str = "when2call-judge-v1"
    base_url: str | None = None
    api_key_env: str | None = None
    concurrency: int = 8
    repeats: int = 1
    temperature: float = 0.0
    max_tokens: int = 512
    dtype: str = "auto"
    bos: bool = False
    batch_size: int = 8
    device: str = "auto"
    threads: int | None = None
    """transformers on the CPU: compute threads (None: the free usable cores; local/threads.py)."""
    native_tools: bool = False
    structured: bool = True
    """Judge: ask for structured output (a JSON schema where the API accepts one; constrained
    decoding locally); False: free text, read strictly, one repair turn."""
    item_filter: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None
    timeout_s: float = 60.0
    max_retries: int = 5
    tokenizer: str | None = None
    """openai log-prob MCQ: the served model's tokenizer (a local folder or a cached id; default
    --model when that is one), so prompts go as token ids, split exactly as lm-eval splits."""
    seed: int | None = 0
    critic_mode: str = "skip"
    """CriticTool: what external samples are told to do once retrying fails (skip, finish)."""
    critic_cot: bool = False
    """CriticTool: the chain-of-thought instructions."""
    retry_limit: int = 3
    """CriticTool: retries after the first call of an external sample."""
    """Sampling seed sent with every request that samples (temperature > 0): repeat k of an item
    gets seed + k, so a rerun asks the same questions with the same seeds."""

    def as_json(self) -> dict[str, Any]:
        """A plain dict (enums as their values)."""
        data = asdict(self)
        data["method"] = self.method.value
        data["backend"] = self.backend.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        """The inverse of as_json."""
        values = dict(data)
        values["method"] = Method(values["method"])
        values["backend"] = Backend(values["backend"])
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in known})

    def fingerprint(self, extra: dict[str, Any] | None = None) -> str:
        """sha256 (first 16 hex) of the canonical JSON of the config plus `extra`."""
        payload = {"config": self.as_json(), **(extra or {})}
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


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
    critic_rounds: tuple[str, ...] = ()
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
