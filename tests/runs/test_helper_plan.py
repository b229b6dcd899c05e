"""When a log-prob run starts helper processes: a small local model, memory to spare, the
threads left to the plan, not the TUI's cached models; their CPU time is the run's own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from dbfixtures import require_module
from helper_checks import assert_same_scores, doubled, keyed, no_error, runner, wait_for
from tiny_models import (
    DEMO,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.runs import Backend, Method, RunConfig, TaskResult
from w2c_tui.runs.local import executor as executor_module
from w2c_tui.runs.local import helpers, threads
from w2c_tui.runs.local.helpers import helpers_wanted
from w2c_tui.runs.local.loading import ModelCache

require_module("torch", "local")  # the helpers load a model
require_module("transformers", "local")


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
