"""Evaluation runs: a database row plus a process of their own (the worker).

A worker gets the database URL in its environment, never on its command line. Whether it still
runs is read from the process itself: the `Popen` this service holds for the workers it started
(`poll()` also reaps a killed child, which would otherwise stay a zombie that `kill(pid, 0)`
calls alive), psutil with the recorded start time for workers started elsewhere on this
machine, and the heartbeat in the run row for workers on other machines. A worker found gone
makes its run `interrupted` (a conditional update: a run that changed meanwhile is left alone).
"""

from __future__ import annotations

import logging
import socket
import subprocess
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from w2c_tui.db.runs import RunStore
from w2c_tui.db.store import Store
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.review import ReviewMode
from w2c_tui.domain.runs import (
    Method,
    RunConfig,
    RunInfo,
    RunResult,
    RunStartError,
    RunStatus,
)
from w2c_tui.domain.tracking import TrackingRecord
from w2c_tui.paths import runs_dir
from w2c_tui.runs.backends import backend_for
from w2c_tui.runs.process import alive, launch_worker, start_time
from w2c_tui.runs.runlog import log_file_name
from w2c_tui.services.run_specs import item_filter
from w2c_tui.services.run_worker import RunWorker

if TYPE_CHECKING:
    from w2c_tui.services.spot import SpotSession

STALE_AFTER = timedelta(seconds=60)
"""A worker on another machine whose heartbeat is older than this is taken for dead."""
RESUMABLE = (RunStatus.CANCELLED, RunStatus.FAILED, RunStatus.INTERRUPTED, RunStatus.DONE)
LIVE = (RunStatus.PENDING, RunStatus.RUNNING, RunStatus.CANCELLING)
ProgressCallback = Callable[[RunInfo], None]


class RunService:
    """Create, launch, execute, cancel and resume runs."""

    def __init__(self, store: Store, db_url: str) -> None:
        self._store = store
        self._runs: RunStore = store.runs
        self._db_url = db_url
        self._children: dict[int, subprocess.Popen[bytes]] = {}

    # ---- creating and launching -------------------------------------------------------------

    def create(self, config: RunConfig) -> int:
        """Validate the configuration and add a pending run (nothing runs yet)."""
        backend_for(config).validate(config)
        if config.method is Method.JUDGE and not config.target_model:
            raise RunStartError(
                "a judge run needs --target-model: the model whose responses are judged"
            )
        if config.repeats < 1:
            raise RunStartError("--repeats and --concurrency must be at least 1")
        ids = self._item_ids(config)
        if config.method is Method.CRITICTOOL:
            from w2c_tui.services.critictool import check_run

            check_run(self._store, config, ids)
        if config.method is Method.CRITICTOOL_JUDGE:
            from w2c_tui.services.critictool import check_judge_run

            ids = check_judge_run(self._store, config, ids)
        run_id = self._runs.create(
            config,
            fingerprint=config.fingerprint(),
            describe={},
            rater=None,
            n_total=len(ids) * config.repeats,
            log_path=None,
        )
        self._runs.update(run_id, log_path=str(self.log_path(run_id)))
        return run_id

    def log_path(self, run_id: int) -> Path:
        """Where run `run_id` of this database logs (named per database and run)."""
        return runs_dir() / log_file_name(self._db_url, run_id)

    def _item_ids(self, config: RunConfig) -> list[int]:
        ids = self._store.items.ids(config.dataset, item_filter(config), ReviewMode.ITEM_QA, None)
        return ids[: config.limit] if config.limit else ids

    def launch(self, run_id: int) -> int:
        """Start the worker process; the database URL goes in its environment."""
        info = self._runs.get(run_id)
        path = Path(info.log_path) if info.log_path else self.log_path(run_id)
        process = launch_worker(run_id, self._db_url, path)
        self._children[run_id] = process
        self._runs.update(run_id, pid=process.pid, worker_started=start_time(process.pid))
        return process.pid

    # ---- reading ---------------------------------------------------------------------------

    def get(self, run_id: int) -> RunInfo:
        """One run, with a dead worker noticed."""
        return self._notice_stale(self._runs.get(run_id))

    def all(self) -> list[RunInfo]:
        """Every run, newest first."""
        return [self._notice_stale(r) for r in self._runs.all()]

    def describe(self, run_id: int) -> Mapping[str, object]:
        """The executor's description of the computation (versions, hashes, device): JSON
        whose keys depend on the backend, shown whole by `w2c run show`."""
        return self._runs.describe(run_id)

    def tracked(self, run_ids: list[int]) -> dict[int, list[TrackingRecord]]:
        """Where these runs were logged to MLflow (or asked to be, or failed), by run id."""
        return self._store.tracking.for_runs(run_ids)

    def results(self, run_id: int) -> list[RunResult]:
        """Per-task results, in item order."""
        self._runs.get(run_id)
        return self._runs.results(run_id)

    def worker_alive(self, info: RunInfo) -> bool | None:
        """Whether the run's worker still runs (None: no worker to ask about)."""
        child = self._children.get(info.id)
        if child is not None and child.pid == info.pid:
            return child.poll() is None
        if info.pid is None:
            return None
        if info.host == socket.gethostname():
            return alive(info.pid, info.worker_started)
        beat = info.heartbeat_at or info.started_at or info.created_at
        beat = beat if beat.tzinfo else beat.replace(tzinfo=UTC)
        return datetime.now(UTC) - beat < STALE_AFTER

    def _notice_stale(self, info: RunInfo) -> RunInfo:
        if info.status not in LIVE or self.worker_alive(info) is not False:
            return info
        message = "the worker stopped without finishing (killed?); resume it"
        self._runs.mark_interrupted(info.id, info.status, info.pid, message, datetime.now(UTC))
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

    def resume(self, run_id: int, *, launch: bool = True, retry_errors: bool = False) -> RunInfo:
        """Continue a cancelled, failed or interrupted run where it stopped; with `retry_errors`
        the tasks that ended in an error run again (a run `done with N errors` too). Claiming
        the run is atomic: of two resumes at once, one starts a worker, the other is refused."""
        info = self.get(run_id)
        if info.status in LIVE:
            raise W2CError(
                f"run {run_id} is {info.status.value} (pid {info.pid}): already being worked on; "
                "cancel it first or wait"
            )
        complete = info.n_done + info.n_error >= info.n_total
        if info.status is RunStatus.DONE and complete and not (retry_errors and info.n_error):
            if info.n_error:
                raise W2CError(
                    f"run {run_id} is {info.status_text}: `w2c run resume {run_id} "
                    "--retry-errors` runs the failed tasks again"
                )
            raise W2CError(f"run {run_id} is done: nothing to resume")
        if self._runs.claim_resume(run_id, RESUMABLE, retry_errors=retry_errors) is None:
            now = self._runs.get(run_id)
            raise W2CError(
                f"run {run_id} was just resumed by someone else (it is {now.status.value}); "
                "nothing more was started"
            )
        if launch:
            self.launch(run_id)
        return self._runs.get(run_id)

    # ---- the worker ------------------------------------------------------------------------

    def execute(self, run_id: int, progress: ProgressCallback | None = None) -> RunInfo:
        """Run the worker body in this process (a pending run): check, describe, then every
        task not done, logging to the run's log file."""
        info = self._runs.get(run_id)
        path = Path(info.log_path) if info.log_path else self.log_path(run_id)
        worker = RunWorker(self._runs, self._db_url, self._item_ids, path, self._track)
        return worker.execute(run_id, progress)

    def _track(self, run_id: int, log: logging.Logger) -> None:
        """Log the ended run to MLflow where `run start --mlflow` asked for it."""
        if not self._store.tracking.for_run(run_id):
            return
        from w2c_tui.services.tracking import TrackingService  # numpy, sklearn: only when asked

        TrackingService(self._store, self._db_url).log_requested(run_id, log)

    def spot_session(self) -> SpotSession:
        """A spot-check session: models load once and serve every check until `close()`."""
        from w2c_tui.services.spot import SpotSession

        return SpotSession(self._store)
