"""Helper processes of a log-prob MCQ run on the CPU: they score from the back of the sorted
items while this process scores from the front; every item once, the same scores, and a helper
that fails or dies hands its items back."""

from __future__ import annotations

import dataclasses
import logging
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_models import (
    DEMO,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.runs import Backend, Method, RunConfig, Task, TaskResult
from w2c_tui.runs.local import executor as executor_module
from w2c_tui.runs.local import helpers, threads
from w2c_tui.runs.local.helper_process import Rendered, SharedWork
from w2c_tui.runs.local.helpers import HelperPool, helpers_wanted
from w2c_tui.runs.local.loading import ModelCache, load
from w2c_tui.runs.local.mcq import McqRunner

TEMPLATE = "when2call-default"
DEADLINE_S = 120.0


def settings(model: Path | str) -> dict[str, object]:
    return {"model": str(model), "dtype": "float32", "template": TEMPLATE, "bos": False}


def runner() -> McqRunner:
    return McqRunner(load(str(tiny_model_dir("gpt2")), "cpu", "float32"), TEMPLATE, False, 8)


def doubled(tasks: list[Task]) -> list[Task]:
    """Each task twice (samples 0 and 1): more items from the 30 of the demo."""
    return tasks + [dataclasses.replace(t, sample_index=1) for t in tasks]


def no_error(result: TaskResult) -> None:
    pytest.fail(f"{result.task.uuid}: {result.error}")


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {DEADLINE_S:.0f} s for {what}")
        time.sleep(0.01)


def keyed(results: Iterable[TaskResult]) -> dict[tuple[int, int], TaskResult]:
    out: dict[tuple[int, int], TaskResult] = {}
    for r in results:
        key = (r.task.item_id, r.task.sample_index)
        assert key not in out, f"{key} emitted twice"
        out[key] = r
    return out


def assert_same_scores(got: dict[tuple[int, int], TaskResult], want: list[TaskResult]) -> None:
    assert got.keys() == keyed(want).keys()
    for expected in want:
        result = got[(expected.task.item_id, expected.task.sample_index)]
        assert result.task == expected.task and result.error == expected.error
        assert result.label == expected.label and result.status == expected.status
        assert result.scores["pred_norm"] == expected.scores["pred_norm"]
        assert result.scores["n_tokens"] == expected.scores["n_tokens"]
        assert result.scores["is_greedy"] == expected.scores["is_greedy"]
        assert result.scores["loglikelihoods"] == pytest.approx(
            expected.scores["loglikelihoods"], abs=1e-4, rel=1e-6
        )


def share(
    pool: HelperPool,
    mcq: McqRunner,
    tasks: list[Task],
    here: Callable[[list[Rendered]], Iterable[TaskResult]] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
) -> list[TaskResult]:
    results: list[TaskResult] = []
    alone: list[bool] = []
    rendered = mcq.render_sorted(tasks, results.append)
    pool.share(
        rendered,
        here or mcq.score_rendered,
        results.append,
        should_stop,
        lambda: alone.append(True),
    )
    return results


def test_the_work_is_taken_from_both_ends_once() -> None:
    task = load_tasks(DEMO)[0]
    work = SharedWork([(task, f"p{i}", []) for i in range(7)])
    assert work.front(3) == [0, 1, 2]
    assert work.back(2) == [6, 5]
    assert work.back(2) == [4, 3]
    assert work.front(3) == [] and work.back(2) == []


def test_a_helper_scores_from_the_back_and_the_scores_match_one_process() -> None:
    mcq = runner()
    tasks = load_tasks(DEMO)
    alone = mcq.score_rendered(mcq.render_sorted(tasks, no_error))
    pool = HelperPool(1, settings(tiny_model_dir("gpt2")))
    helper = pool.helpers[0]
    waited: list[bool] = []

    def here(items: list[Rendered]) -> list[TaskResult]:
        if not waited:  # let the helper load and take part before this process runs ahead
            wait_for(lambda: helper.scored >= 4, "the helper's first results")
            waited.append(True)
        return mcq.score_rendered(items)

    results = share(pool, mcq, tasks, here)
    got = keyed(results)
    assert_same_scores(got, alone)
    by = Counter(r.meta.get("scored_by", "here") for r in results)
    assert by["helper 1"] >= 4 and by["here"] >= 4 and sum(by.values()) == len(tasks)
    # the helper took the last prompts in sorted order, this process the first ones
    order = [task.item_id for task, _, _ in mcq.render_sorted(tasks, no_error)]
    assert got[(order[-1], 0)].meta["scored_by"] == "helper 1"
    assert "scored_by" not in got[(order[0], 0)].meta
    assert helper.process.poll() is not None  # reaped


def test_a_helper_killed_mid_run_hands_its_items_back(caplog: pytest.LogCaptureFixture) -> None:
    mcq = runner()
    tasks = load_tasks(DEMO)
    alone = mcq.score_rendered(mcq.render_sorted(tasks, no_error))
    pool = HelperPool(1, settings(tiny_model_dir("gpt2")))
    helper = pool.helpers[0]
    killed: list[int] = []

    def here(items: list[Rendered]) -> list[TaskResult]:
        if not killed:  # kill it once it holds work: the items it held come back here
            wait_for(lambda: helper.scored >= 1 and bool(helper.pending), "work in the helper")
            killed.append(len(helper.pending))
            helper.process.kill()
        return mcq.score_rendered(items)

    with caplog.at_level(logging.INFO, logger="w2c.local"):
        results = share(pool, mcq, tasks, here)
    assert_same_scores(keyed(results), alone)
    assert killed and killed[0] >= 1
    assert "helper process 1" in caplog.text and "ended early" in caplog.text
    assert "items are scored here" in caplog.text


def test_a_helper_that_cannot_load_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    mcq = runner()
    tasks = load_tasks(DEMO)[:6]
    pool = HelperPool(1, settings(tmp_path / "no-such-model"))
    helper = pool.helpers[0]

    def here(items: list[Rendered]) -> list[TaskResult]:
        wait_for(lambda: helper.failure is not None, "the helper's failure")
        return mcq.score_rendered(items)

    with caplog.at_level(logging.INFO, logger="w2c.local"):
        results = share(pool, mcq, tasks, here)
    assert len(keyed(results)) == 6 and not any(r.error for r in results)
    assert "no-such-model" in caplog.text and "does not exist" in caplog.text


def test_a_cancel_stops_the_helpers() -> None:
    mcq = runner()
    tasks = load_tasks(DEMO)
    pool = HelperPool(1, settings(tiny_model_dir("gpt2")))
    helper = pool.helpers[0]
    calls: list[int] = []

    def here(items: list[Rendered]) -> list[TaskResult]:
        calls.append(len(items))
        return mcq.score_rendered(items)

    results = share(pool, mcq, tasks, here, should_stop=lambda: bool(calls))
    assert calls == [helpers.FRONT] and len(results) == helpers.FRONT
    assert helper.process.poll() is not None and helper.stopped


def test_a_helper_ends_by_itself_when_its_parent_is_gone() -> None:
    """Its input closing (the parent killed, nothing cleaned up) ends it after its load."""
    pool = HelperPool(1, settings(tiny_model_dir("gpt2")))
    helper = pool.helpers[0]
    assert helper.process.stdin is not None
    helper.process.stdin.close()
    assert helper.process.wait(timeout=DEADLINE_S) == 0 and not helper.stopped
    pool.close()


def test_helpers_only_for_a_small_local_model_with_memory_to_spare(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = tiny_model_dir("gpt2")
    assert helpers_wanted(str(small), 2) == 1 and helpers_wanted(str(small), 8) == 3
    assert helpers_wanted(str(small), 1) == 0
    assert helpers_wanted("some-org/some-model", 4) == 0  # not a local folder
    big = tmp_path / "big"
    big.mkdir()
    with (big / "model.safetensors").open("wb") as f:
        f.truncate(helpers.HELPER_MAX_WEIGHTS + 1)  # sparse: no disk used
    assert helpers_wanted(str(big), 4) == 0

    class Memory:
        available = 3 * helpers.PROCESS_OVERHEAD  # room for this process and two helpers

    monkeypatch.setattr(helpers.psutil, "virtual_memory", Memory)
    assert helpers_wanted(str(small), 8) == 1


def test_helpers_cpu_time_is_not_other_processes_load(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([10.0, 12.0, 12.0])
    monkeypatch.setattr(threads.time, "monotonic", lambda: next(clock))
    cpus = iter([[100.0, 50.0], [101.5, 52.5]])  # 4 busy CPU-seconds in the 2 s
    monkeypatch.setattr(threads, "_busy_times", lambda: next(cpus))
    own = iter([3.0, 4.0])  # 1 of them this process's
    monkeypatch.setattr(threads, "_own_cpu", lambda: next(own))
    monkeypatch.setattr(threads, "_cpu_of", lambda pids: 2.0 if pids == [41] else 0.0)
    assert threads.BusySample().busy(ours=[41]) == pytest.approx(0.5)


def test_cpu_time_of_a_finished_or_unknown_process_is_nothing() -> None:
    child = subprocess.Popen([sys.executable, "-c", "sum(range(3_000_000))"])
    wait_for(lambda: threads._cpu_of([child.pid]) > 0.0, "the child's CPU time")
    child.wait()
    assert threads._cpu_of([child.pid]) == 0.0  # reaped: gone


def config(**kw: object) -> RunConfig:
    return RunConfig.of(
        method=Method.MCQ_LOGPROB,
        backend=Backend.TRANSFORMERS,
        model=str(tiny_model_dir("gpt2")),
        dataset="demo",
        device="cpu",
        **kw,
    )  # type: ignore[arg-type]


@pytest.fixture
def two_free_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan finds two free cores and the user decided nothing."""
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(helpers, "usable_cores", lambda: 2)
    monkeypatch.setattr(
        executor_module,
        "plan_threads",
        lambda requested, sample, ours: threads.ThreadPlan(2, "2 usable core(s), 0.0 busy now"),
    )


def test_the_executor_shares_a_run_with_a_helper(two_free_cores: None) -> None:
    tasks = doubled(load_tasks(DEMO))  # 60: enough for two processes
    executor = executor_module.TransformersExecutor(config())
    executor.check()
    described = executor.describe()
    assert described["helper_processes"] == 1 and described["threads"] == 1
    assert "2 processes of 1 thread(s)" in described["threads_because"]
    results: list[TaskResult] = []
    executor.run(tasks, results.append, lambda: False)
    mcq = runner()
    assert_same_scores(keyed(results), mcq.score_rendered(mcq.render_sorted(tasks, no_error)))


def test_no_helper_where_it_would_not_pay(two_free_cores: None) -> None:
    """Too few items: the helper is stopped and this process takes both cores."""
    import torch

    executor = executor_module.TransformersExecutor(config())
    executor.check()
    assert executor.describe()["helper_processes"] == 1
    results: list[TaskResult] = []
    executor.run(load_tasks(DEMO)[:10], results.append, lambda: False)
    assert len(results) == 10 and not any("scored_by" in r.meta for r in results)
    assert torch.get_num_threads() == 2
    torch.set_num_threads(1)


@pytest.mark.parametrize("setting", ["threads", "omp", "cache"])
def test_no_helper_when_the_user_or_the_tui_decides(
    two_free_cores: None, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    started: list[int] = []
    monkeypatch.setattr(helpers, "HelperPool", lambda n, s: started.append(n))
    if setting == "omp":
        monkeypatch.setenv("OMP_NUM_THREADS", "2")
    executor = executor_module.TransformersExecutor(
        config(threads=2) if setting == "threads" else config(),
        ModelCache() if setting == "cache" else None,
    )
    executor.check()
    assert started == [] and executor.describe()["helper_processes"] == 0
