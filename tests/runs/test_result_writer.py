"""The result writer: queued results reach the store in batches from its own thread, each task
exactly once, and a storing failure stops the run instead of being lost."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.runs import Backend, Method, RunConfig, Task, TaskResult
from w2c_tui.services import Services
from w2c_tui.services.result_writer import ResultWriter, WriterFailed


def result(i: int) -> TaskResult:
    task = Task(i, f"u{i}", "q", (), (), None)
    return TaskResult(task=task, label=Label.DIRECT, status=VerdictStatus.OK)


def test_results_are_written_in_batches_off_the_callers_thread() -> None:
    release = threading.Event()
    batches: list[list[int]] = []
    threads: set[str] = set()

    def write(batch: Sequence[TaskResult]) -> None:
        threads.add(threading.current_thread().name)
        release.wait(5)  # a slow commit: the caller must not wait for it
        batches.append([r.task.item_id for r in batch])

    writer = ResultWriter(write, max_batch=50)
    for i in range(120):
        writer.put(result(i))  # never blocks, even while the first commit hangs
    release.set()
    writer.close()
    assert [i for batch in batches for i in batch] == list(range(120))
    assert len(batches) < 120 and max(len(b) for b in batches) <= 50
    assert threads == {"w2c-result-writer"}
    assert writer.written == 120 and writer.batches == len(batches)


def test_a_failing_store_stops_the_producer() -> None:
    def write(batch: Sequence[TaskResult]) -> None:
        raise OSError("disk full")

    writer = ResultWriter(write)
    writer.put(result(1))
    with pytest.raises(WriterFailed, match="disk full"):
        writer.close()
    with pytest.raises(WriterFailed):
        writer.put(result(2))


def test_a_batch_stores_each_task_once(demo: Services) -> None:
    config = RunConfig(Method.MCQ_LOGPROB, Backend.TRANSFORMERS, "m", "demo", limit=4)
    run_id = demo.runs.create(config)
    ids = demo.store.items.ids("demo", ItemFilter(), ReviewMode.ITEM_QA, None)[:4]
    tasks = demo.store.runs.tasks(config, ids)
    scored = [TaskResult(task=t, label=Label.DIRECT, status=VerdictStatus.OK) for t in tasks]
    from w2c_tui.domain.labels import RaterKind
    from w2c_tui.domain.records import RaterSpec

    rater = RaterSpec(RaterKind.MCQ_LOGPROB, "m", {})
    assert demo.store.runs.record_many(run_id, [*scored[:2], scored[0]], config, rater) == 2
    assert demo.store.runs.record_many(run_id, scored, config, rater) == 2  # two were there
    info = demo.store.runs.get(run_id)
    assert (info.n_done, info.n_error) == (4, 0)
    assert len(demo.runs.results(run_id)) == 4
