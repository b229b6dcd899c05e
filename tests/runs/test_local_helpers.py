"""Helper processes of a log-prob MCQ run on the CPU: they score from the back of the sorted
items while this process scores from the front; every item once, the same scores, and a helper
that fails or dies hands its items back."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from dbfixtures import require_module
from helper_checks import (
    DEADLINE_S,
    TEMPLATE,
    assert_same_scores,
    keyed,
    no_error,
    runner,
    settings,
    wait_for,
)
from tiny_models import (
    DEMO,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.local import helpers
from w2c_tui.runs.local.helper_process import Rendered, SharedWork
from w2c_tui.runs.local.helpers import HelperPool
from w2c_tui.runs.local.mcq import McqRunner

require_module("torch", "local")  # the helpers load a model
require_module("transformers", "local")


def share(
    pool: HelperPool,
    mcq: McqRunner,
    tasks: list[Task],
    here: Callable[[list[Rendered]], Iterable[TaskResult]] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    first: Callable[[], None] | None = None,
) -> list[TaskResult]:
    """`pool.share` on the tasks; `first` runs once before this process scores its first items
    (a wait for the helper, a kill), `here` replaces this process's scorer."""
    results: list[TaskResult] = []
    started: list[bool] = []

    def scored_here(items: list[Rendered]) -> Iterable[TaskResult]:
        if first is not None and not started:
            started.append(True)
            first()
        return (here or mcq.score_rendered)(items)

    rendered = mcq.render_sorted(tasks, results.append)
    pool.share(rendered, scored_here, results.append, should_stop)
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

    def helper_first() -> None:  # let the helper load and take part before this process runs
        wait_for(lambda: helper.scored >= 4, "the helper's first results")

    results = share(pool, mcq, tasks, first=helper_first)
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

    def kill_while_it_holds_work() -> None:  # the items it held come back here
        wait_for(lambda: helper.scored >= 1 and bool(helper.pending), "work in the helper")
        killed.append(len(helper.pending))
        helper.process.kill()

    with caplog.at_level(logging.INFO, logger="w2c.local"):
        results = share(pool, mcq, tasks, first=kill_while_it_holds_work)
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

    def failed() -> None:
        wait_for(lambda: helper.failure is not None, "the helper's failure")

    with caplog.at_level(logging.INFO, logger="w2c.local"):
        results = share(pool, mcq, tasks, first=failed)
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


def test_a_helper_that_cannot_start_leaves_the_run_to_this_process(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from w2c_tui.runs.local import helper_process

    def refuse(*_args: object, **_kw: object) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(helpers, "usable_cores", lambda: 2)
    monkeypatch.setattr(helper_process.subprocess, "Popen", refuse)
    with caplog.at_level(logging.WARNING, logger="w2c.local"):
        pool = helpers.start_for_run(str(tiny_model_dir("gpt2")), "float32", TEMPLATE, False)
    assert pool is None and "no more processes" in caplog.text
