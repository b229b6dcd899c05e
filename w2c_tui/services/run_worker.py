"""The body of a run's worker: claim the run, log to its file, check the configuration, then
every task not yet recorded, results stored by the writer thread in batched transactions."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from w2c_tui.db.runs import RunStore
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.runs import RunConfig, RunInfo, RunStartError, RunStatus, TaskResult
from w2c_tui.runs import backends
from w2c_tui.runs.process import start_time
from w2c_tui.runs.runlog import run_logging, url_secrets
from w2c_tui.services.result_writer import ResultWriter, WriterFailed
from w2c_tui.services.run_specs import rater_spec

HEARTBEAT_EVERY = 5.0
STOP_CHECK_EVERY = 0.5
ProgressCallback = Callable[[RunInfo], None]
ItemIds = Callable[[RunConfig], list[int]]
OnEnd = Callable[[int, logging.Logger], None]
"""Called with the run's id and log once the run has ended (not when a signal stopped it)."""


def _now() -> datetime:
    return datetime.now(UTC)


def run_secrets(db_url: str, config: RunConfig) -> list[str]:
    """The secrets a run touches: the database password and the API key its backend names."""
    found = url_secrets(db_url)
    for name in backends.backend_for(config).secret_envs(config):
        key = os.environ.get(name, "").strip()
        if len(key) >= 4:
            found.append(key)
    return found


class RunWorker:
    """Executes one run in this process (see the module docstring)."""

    def __init__(
        self,
        runs: RunStore,
        db_url: str,
        item_ids: ItemIds,
        log_path: Path,
        on_end: OnEnd | None = None,
    ) -> None:
        self.runs = runs
        self.db_url = db_url
        self.item_ids = item_ids
        self.log_path = log_path
        self.on_end = on_end

    def execute(self, run_id: int, progress: ProgressCallback | None = None) -> RunInfo:
        """Claim the pending run and execute it; W2CError if another worker holds it."""
        config = self.runs.get(run_id).config
        with run_logging(self.log_path, run_secrets(self.db_url, config)) as log:
            pid = os.getpid()
            host = socket.gethostname()
            if not self.runs.claim_start(
                run_id, pid=pid, started=start_time(pid), host=host, now=_now()
            ):
                seen = self.runs.get(run_id)
                log.warning("run %d is %s, not pending: this worker stops", run_id, seen.status)
                raise W2CError(
                    f"run {run_id} is {seen.status_text}, not pending: another worker has it "
                    f"(pid {seen.pid}); nothing was started"
                )
            log.info(
                "run %d: worker pid %d on %s: %s, %s backend, model %s, dataset %s",
                run_id,
                pid,
                host,
                config.method.value,
                config.backend.value,
                config.model,
                config.dataset,
            )
            try:
                info = self._body(run_id, config, log, progress)
            except (KeyboardInterrupt, SystemExit):
                log.warning(
                    "run %d stopped by a signal; `w2c run resume %d` continues", run_id, run_id
                )
                self.runs.mark_interrupted(
                    run_id, RunStatus.RUNNING, pid, "the worker was stopped; resume it", _now()
                )
                raise
            except Exception:
                self._ended(run_id, log)
                raise
            self._ended(run_id, log)
            return info

    def _ended(self, run_id: int, log: logging.Logger) -> None:
        """The run has ended (done, cancelled or failed): what else should happen now
        (logging it to MLflow) happens, and never fails the run."""
        if self.on_end is None:
            return
        try:
            self.on_end(run_id, log)
        except Exception as error:
            log.warning("after the run: %s: %s", type(error).__name__, error)

    def _body(
        self,
        run_id: int,
        config: RunConfig,
        log: logging.Logger,
        progress: ProgressCallback | None,
    ) -> RunInfo:
        log.info("checking the configuration (model, server, key, what the method needs)")
        try:
            executor = backends.make_executor(config)
            executor.check()
            describe = executor.describe()
        except RunStartError as error:
            log.error("check failed: %s", error)
            self._fail(run_id, str(error))
            raise
        except Exception as error:
            log.exception("the run could not start")
            self._fail(run_id, f"{type(error).__name__}: {error}")
            raise RunStartError(f"run {run_id} could not start: {error}") from error
        log.info("check passed; computation: %s", json.dumps(describe, default=str))
        rater = rater_spec(config, describe)
        self.runs.set_identity(run_id, config.fingerprint({"describe": describe}), describe, rater)
        tasks = self.runs.tasks(config, self.item_ids(config))
        done = self.runs.done(run_id)
        todo = [t for t in tasks if (t.item_id, t.sample_index) not in done]
        self.runs.update(run_id, n_total=len(tasks))
        log.info("%d tasks, %d already recorded, %d to do", len(tasks), len(done), len(todo))
        stop = threading.Event()
        beat = threading.Thread(
            target=self._heartbeat, args=(run_id, stop, log), daemon=True, name="w2c-heartbeat"
        )
        beat.start()
        should_stop = self._cancel_check(run_id)
        step = max(1, len(todo) // 10)
        counted = [0]

        def write(batch: Sequence[TaskResult]) -> None:
            self.runs.record_many(run_id, batch, config, rater)
            for result in batch:
                if result.error:
                    task = result.task
                    log.warning(
                        "task %s (sample %d) failed after %d retries: %s",
                        task.uuid,
                        task.sample_index,
                        int(result.meta.get("retries", 0)),
                        result.error,
                    )
            before, counted[0] = counted[0], counted[0] + len(batch)
            if counted[0] // step != before // step or counted[0] == len(todo):
                log.info("progress: %d of %d tasks this session", counted[0], len(todo))
            if progress is not None:
                progress(self.runs.get(run_id))

        writer = ResultWriter(write)
        try:
            executor.run(todo, writer.put, should_stop)
            writer.close()
        except WriterFailed as error:
            stop.set()
            log.error("%s", error)
            self._fail(run_id, str(error))
            raise
        except Exception as error:
            stop.set()
            with contextlib.suppress(WriterFailed):
                writer.close()  # keep what finished before the failure
            log.exception("the run failed")
            self._fail(run_id, f"{type(error).__name__}: {error}")
            raise
        finally:
            stop.set()
        final = RunStatus.CANCELLED if should_stop() else RunStatus.DONE
        self.runs.update(run_id, status=final, finished_at=_now(), heartbeat_at=_now())
        info = self.runs.get(run_id)
        log.info(
            "run %d %s: %d done, %d errors of %d tasks",
            run_id,
            info.status_text,
            info.n_done,
            info.n_error,
            info.n_total,
        )
        if info.n_error and final is RunStatus.DONE:
            log.info("`w2c run resume %d --retry-errors` runs the failed tasks again", run_id)
        return info

    def _cancel_check(self, run_id: int) -> Callable[[], bool]:
        """True once the run is being cancelled (read from the store at most twice a second)."""
        last = [0.0, False]

        def should_stop() -> bool:
            if time.monotonic() - float(last[0]) > STOP_CHECK_EVERY:
                last[0] = time.monotonic()
                last[1] = self.runs.status(run_id) is RunStatus.CANCELLING
            return bool(last[1])

        return should_stop

    def _heartbeat(self, run_id: int, stop: threading.Event, log: logging.Logger) -> None:
        """Beat until the run ends; a beat the database did not take (locked past the wait)
        is logged and the next one tries again: this thread never dies while the run lives."""
        while not stop.wait(HEARTBEAT_EVERY):
            try:
                self.runs.update(run_id, heartbeat_at=_now())
            except Exception as error:
                log.warning("run %d: heartbeat not saved, trying again: %s", run_id, error)

    def _fail(self, run_id: int, message: str) -> None:
        self.runs.update(run_id, status=RunStatus.FAILED, error=message, finished_at=_now())
