"""A run's worker process killed with SIGKILL while the service that started it stays open
shows `interrupted` within 5 s (nobody reaps it by hand: the service's own `Popen`, or psutil
for a reader that did not start it, tells a zombie from a live worker); resumed, the run ends
with every task done exactly once."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

from fake_server import FakeOpenAI
from sqlalchemy import text

from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStatus
from w2c_tui.services import Services, open_services

N_ITEMS = 24
NOTICED_WITHIN_S = 5.0


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds until `condition` held."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def counts(svc: Services, sql: str, run_id: int) -> list[tuple[int, ...]]:
    with svc.store.engine.connect() as db:
        return [tuple(row) for row in db.execute(text(sql), {"run": run_id}).all()]


def test_sigkill_is_noticed_within_5s_then_resume_does_every_task_once(demo: Services) -> None:
    with FakeOpenAI(latency_s=0.15, default_reply="Sure, here it is.") as server:
        config = RunConfig.of(
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
        reader = open_services(demo.url)  # another front end on the same database
        try:
            os.kill(pid, signal.SIGKILL)  # the child is now a zombie until someone polls it
            seen_by_reader = wait_for(
                lambda: reader.runs.get(run_id).status is RunStatus.INTERRUPTED,
                NOTICED_WITHIN_S,
                "the reader to notice",
            )
            seen_by_launcher = wait_for(
                lambda: demo.runs.get(run_id).status is RunStatus.INTERRUPTED,
                NOTICED_WITHIN_S,
                "the launcher to notice",
            )
        finally:
            reader.close()
        print(f"interrupted noticed after {seen_by_reader:.2f} s (reader), launcher at once")
        assert seen_by_launcher < NOTICED_WITHIN_S
        killed = demo.runs.get(run_id)
        assert 5 <= killed.n_done < N_ITEMS and "resume" in (killed.error or "")
        demo.runs.resume(run_id)
        wait_for(lambda: demo.runs.get(run_id).status is RunStatus.DONE, 60, "the resumed run")
    final = demo.runs.get(run_id)
    assert (final.n_done, final.n_error, final.n_total) == (N_ITEMS, 0, N_ITEMS)
    tasks = counts(
        demo,
        "SELECT item_id, COUNT(*) FROM run_result WHERE run_id = :run GROUP BY item_id",
        run_id,
    )
    [(responses,)] = counts(demo, "SELECT COUNT(*) FROM response WHERE run_id = :run", run_id)
    assert len(tasks) == N_ITEMS and all(count == 1 for _, count in tasks)
    assert responses == N_ITEMS  # no task stored twice, none lost
