"""A run's worker process killed with SIGKILL and resumed ends with every task done once."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable

import pytest

pytest.importorskip("openai")

from dbfixtures import query
from fake_server import FakeOpenAI

from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStatus
from w2c_tui.services import Services

N_ITEMS = 24


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_sigkill_then_resume_does_every_task_exactly_once(demo: Services) -> None:
    with FakeOpenAI(latency_s=0.15, default_reply="Sure, here it is.") as server:
        config = RunConfig(
            method=Method.GENERATE,
            backend=Backend.OPENAI,
            model="fake-model",
            dataset="demo",
            base_url=server.url,
            concurrency=1,
            limit=N_ITEMS,
        )
        run_id = demo.runs.create(config)
        pid = demo.runs.launch(run_id)  # a real worker process, in its own session
        wait_for(lambda: demo.runs.get(run_id).n_done >= 5, 60, "five tasks")
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        killed = demo.runs.get(run_id)
        assert killed.status is RunStatus.INTERRUPTED  # noticed: its process is gone
        assert 5 <= killed.n_done < N_ITEMS
        demo.runs.resume(run_id)
        wait_for(lambda: demo.runs.get(run_id).status is RunStatus.DONE, 60, "the resumed run")
        resumed_pid = demo.runs.get(run_id).pid
        assert resumed_pid is not None
        with contextlib.suppress(ChildProcessError):
            os.waitpid(resumed_pid, 0)
    final = demo.runs.get(run_id)
    assert (final.n_done, final.n_error, final.n_total) == (N_ITEMS, 0, N_ITEMS)
    tasks = query(
        demo.url,
        "SELECT item_id, COUNT(*) FROM run_result WHERE run_id = :run GROUP BY item_id",
        run=run_id,
    )
    [(responses,)] = query(
        demo.url, "SELECT COUNT(*) FROM response WHERE run_id = :run", run=run_id
    )
    assert len(tasks) == N_ITEMS and all(count == 1 for _, count in tasks)
    assert responses == N_ITEMS  # no task stored twice, none lost
