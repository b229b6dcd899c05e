"""Evaluation runs: a database row plus a process of their own (the worker)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from w2c_tui.db.runs import RunStore
from w2c_tui.db.store import Store
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.review import ItemFilter, ReviewMode, ToolCount
from w2c_tui.domain.runs import (
    Method,
    RunConfig,
    RunInfo,
    RunStartError,
    RunStatus,
    SpotCheck,
    Task,
    TaskResult,
)
from w2c_tui.paths import runs_dir
from w2c_tui.services.run_writer import ResultWriter

STALE_AFTER = timedelta(seconds=60)
"""A running run whose worker has not written for this long and whose process is gone is
interrupted (it was killed): `resume` continues it."""
HEARTBEAT_EVERY = 5.0
ProgressCallback = Callable[[RunInfo], None]


def rater_spec(config: RunConfig, describe: dict[str, Any]) -> RaterSpec | None:
    """The rater a run's verdicts carry (None for generation, which makes responses)."""
    backend = config.backend.value
    if config.method is Method.JUDGE:
        return RaterSpec(
            RaterKind.JUDGE,
            config.model,
            {
                "prompt": describe.get("judge_prompt_version", config.judge_prompt),
                "backend": backend,
            },
        )
    if config.method is Method.MCQ_LOGPROB:
        return RaterSpec(
            RaterKind.MCQ_LOGPROB,
            config.model,
            {
                "template": config.template,
                "template_hash": describe.get("template_hash"),
                "bos": describe.get("bos", config.bos),
                "backend": backend,
            },
        )
    if config.method is Method.MCQ_INDEX:
        return RaterSpec(
            RaterKind.MCQ_INDEX,
            config.model,
            {
                "prompt": describe.get("mcq_prompt_version", "when2call-mcq-index-v1"),
                "backend": backend,
            },
        )
    return None


def item_filter(config: RunConfig) -> ItemFilter:
    """The item filter stored in a run's configuration."""
    values = config.item_filter
    return ItemFilter(
        gold=Label.parse(values["gold"]) if values.get("gold") else None,
        tools=ToolCount(values["tools"]) if values.get("tools") else None,
        source=values.get("source"),
        search=values.get("search", ""),
    )


def pid_alive(pid: int | None) -> bool:
    """True when a process with this id runs on this machine."""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunService:
    """Create, launch, execute, cancel and resume runs."""

    def __init__(self, store: Store, db_url: str) -> None:
        self._store = store
        self._runs: RunStore = store.runs
        self._db_url = db_url

    # ---- creating and launching -------------------------------------------------------------

    def create(self, config: RunConfig) -> int:
        """Validate the configuration and add a pending run (nothing runs yet)."""
        if config.method is Method.JUDGE and not config.target_model:
            raise RunStartError(
                "a judge run needs --target-model: the model whose responses are judged"
            )
        if config.backend.value == "openai" and not config.base_url:
            raise RunStartError(
                "the openai backend needs --base-url (e.g. "
                "https://api.openai.com/v1 or http://127.0.0.1:8000/v1)"
            )
        if config.repeats < 1 or config.concurrency < 1:
            raise RunStartError("--repeats and --concurrency must be at least 1")
        ids = self._item_ids(config)
        log = runs_dir()
        log.mkdir(parents=True, exist_ok=True)
        run_id = self._runs.create(
            config,
            fingerprint=config.fingerprint(),
            describe={},
            rater=None,
            n_total=len(ids) * config.repeats,
            log_path=None,
        )
        self._runs.update(run_id, log_path=str(log / f"run-{run_id}.log"))
        return run_id

    def _item_ids(self, config: RunConfig) -> list[int]:
        ids = self._store.items.ids(config.dataset, item_filter(config), ReviewMode.ITEM_QA, None)
        return ids[: config.limit] if config.limit else ids

    def launch(self, run_id: int) -> int:
        """Start the worker process (its own session: closing the TUI does not stop it)."""
        info = self._runs.get(run_id)
        log_path = info.log_path or str(runs_dir() / f"run-{run_id}.log")
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "w2c_tui",
                    "--db",
                    self._db_url,
                    "run",
                    "worker",
                    str(run_id),
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env=dict(os.environ),
            )
        self._runs.update(run_id, pid=process.pid)
        return process.pid

    # ---- reading ---------------------------------------------------------------------------

    def get(self, run_id: int) -> RunInfo:
        """One run, with a killed worker noticed."""
        return self._notice_stale(self._runs.get(run_id))

    def all(self) -> list[RunInfo]:
        """Every run, newest first."""
        return [self._notice_stale(r) for r in self._runs.all()]

    def describe(self, run_id: int) -> dict[str, Any]:
        """The executor's description of the computation (versions, hashes, device)."""
        return self._runs.describe(run_id)

    def results(self, run_id: int) -> list[dict[str, Any]]:
        """Per-task results, in item order."""
        self._runs.get(run_id)
        return self._runs.results(run_id)

    def _notice_stale(self, info: RunInfo) -> RunInfo:
        if info.status not in (RunStatus.RUNNING, RunStatus.CANCELLING):
            return info
        beat = info.heartbeat_at or info.started_at or info.created_at
        if beat.tzinfo is None:
            beat = beat.replace(tzinfo=UTC)
        if info.host == socket.gethostname():
            if pid_alive(info.pid):
                return info  # our own machine: the process table is the truth
        elif datetime.now(UTC) - beat < STALE_AFTER:
            return info  # a worker elsewhere: trust its heartbeat for a while
        self._runs.update(
            info.id,
            status=RunStatus.INTERRUPTED,
            error="the worker stopped without finishing (killed?); resume it",
        )
        return self._runs.get(info.id)

    # ---- controlling -----------------------------------------------------------------------

    def cancel(self, run_id: int) -> RunInfo:
        """Ask a running worker to stop after the task in hand (a pending run just stops)."""
        info = self.get(run_id)
        if info.status is RunStatus.RUNNING:
            self._runs.update(run_id, status=RunStatus.CANCELLING)
        elif info.status is RunStatus.PENDING:
            self._runs.update(run_id, status=RunStatus.CANCELLED, finished_at=datetime.now(UTC))
        return self._runs.get(run_id)

    def resume(self, run_id: int, *, launch: bool = True) -> RunInfo:
        """Continue a cancelled, failed or interrupted run where it stopped."""
        info = self.get(run_id)
        if info.status in (RunStatus.RUNNING, RunStatus.CANCELLING):
            raise W2CError(
                f"run {run_id} is {info.status.value} (pid {info.pid}); cancel it first or wait"
            )
        if info.status is RunStatus.DONE and info.n_done + info.n_error >= info.n_total:
            raise W2CError(f"run {run_id} is done: nothing to resume")
        self._runs.update(run_id, status=RunStatus.PENDING, error=None)
        if launch:
            self.launch(run_id)
        return self._runs.get(run_id)

    # ---- the worker ------------------------------------------------------------------------

    def execute(self, run_id: int, progress: ProgressCallback | None = None) -> RunInfo:
        """Run the worker body in this process: check, describe, then every task not done."""
        from w2c_tui.runs.executor import make_executor

        info = self._runs.get(run_id)
        config = info.config
        self._runs.update(
            run_id,
            status=RunStatus.RUNNING,
            pid=os.getpid(),
            started_at=info.started_at or datetime.now(UTC),
            heartbeat_at=datetime.now(UTC),
            error=None,
            finished_at=None,
            host=socket.gethostname(),
        )
        try:
            executor = make_executor(config)
            executor.check()
            describe = executor.describe()
        except RunStartError as error:
            self._fail(run_id, str(error))
            raise
        except Exception as error:
            self._fail(run_id, f"{type(error).__name__}: {error}")
            raise RunStartError(f"run {run_id} could not start: {error}") from error
        rater = rater_spec(config, describe)
        self._runs.set_identity(run_id, config.fingerprint({"describe": describe}), describe, rater)
        tasks = self._runs.tasks(config, self._item_ids(config))
        done = self._runs.done(run_id)
        todo = [t for t in tasks if (t.item_id, t.sample_index) not in done]
        self._runs.update(run_id, n_total=len(tasks))
        stop = threading.Event()
        beat = threading.Thread(target=self._heartbeat, args=(run_id, stop), daemon=True)
        beat.start()
        last_check = [0.0, False]

        def should_stop() -> bool:
            if time.monotonic() - float(last_check[0]) > 0.5:
                last_check[0] = time.monotonic()
                last_check[1] = self._runs.status(run_id) is RunStatus.CANCELLING
            return bool(last_check[1])

        try:
            with ResultWriter(self._runs, run_id, config, rater, progress) as writer:
                executor.run(todo, writer.emit, should_stop)
        except Exception as error:
            stop.set()
            self._fail(run_id, f"{type(error).__name__}: {error}")
            raise
        stop.set()
        final = RunStatus.CANCELLED if should_stop() else RunStatus.DONE
        self._runs.update(
            run_id, status=final, finished_at=datetime.now(UTC), heartbeat_at=datetime.now(UTC)
        )
        return self._runs.get(run_id)

    def spot_check(self, item_id: int, model: RunConfig, judge: RunConfig | None) -> SpotCheck:
        """Ask `model` for its response to one item now, judge it, and (local models) score the
        four answers by log-probability. Nothing is stored: it is a look, not a run."""
        from w2c_tui.runs.executor import make_executor

        task = Task.of(self._store.items.detail(item_id, None).item)
        errors: list[str] = []

        def one(config: RunConfig, the_task: Task) -> TaskResult | None:
            try:
                executor = make_executor(config)
                executor.check()
                out: list[TaskResult] = []
                executor.run([the_task], out.append, lambda: False)
            except Exception as error:  # shown to the user beside the other two results
                errors.append(f"{config.method.value}: {error}")
                return None
            if out and out[0].error:
                errors.append(f"{config.method.value}: {out[0].error}")
            return out[0] if out else None

        generated = one(replace(model, method=Method.GENERATE), task)
        text = generated.response_text if generated else None
        verdict = None
        if judge is not None and text is not None:
            verdict = one(replace(judge, method=Method.JUDGE), replace(task, response_text=text))
        mcq = None
        if model.backend.value == "transformers":
            mcq = one(replace(model, method=Method.MCQ_LOGPROB), task)
        return SpotCheck(
            model=model.model, response=text, judge=verdict, mcq=mcq, errors=tuple(errors)
        )

    def _heartbeat(self, run_id: int, stop: threading.Event) -> None:
        while not stop.wait(HEARTBEAT_EVERY):
            self._runs.update(run_id, heartbeat_at=datetime.now(UTC))

    def _fail(self, run_id: int, message: str) -> None:
        self._runs.update(
            run_id, status=RunStatus.FAILED, error=message, finished_at=datetime.now(UTC)
        )
