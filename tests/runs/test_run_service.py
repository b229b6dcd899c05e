"""Runs through the services with a stand-in executor: rows, checkpoints, cancel, resume."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.runs import (
    Backend,
    Method,
    RunConfig,
    RunStartError,
    RunStatus,
    Task,
    TaskResult,
)
from w2c_tui.runs import backends
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.services import Services


class FakeExecutor:
    """Labels every item tool_call, fails on one uuid, and can stop after N tasks."""

    def __init__(
        self,
        config: RunConfig,
        *,
        fail_uuid: str | None = None,
        stop_after: int | None = None,
        cannot_start: str | None = None,
        label_of: Callable[[Task], Label] | None = None,
        delay_s: float = 0.0,
    ) -> None:
        self.delay_s = delay_s
        self.config = config
        self.label_of = label_of or (lambda task: Label.TOOL_CALL)
        self.fail_uuid = fail_uuid
        self.stop_after = stop_after
        self.cannot_start = cannot_start
        self.seen: list[tuple[int, int]] = []

    def check(self) -> None:
        if self.cannot_start:
            raise RunStartError(self.cannot_start)

    def describe(self) -> dict[str, Any]:
        return {"template_hash": "abc123", "judge_prompt_version": "fake-v1"}

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        for task in tasks:
            if should_stop() or (self.stop_after is not None and len(self.seen) >= self.stop_after):
                return
            self.seen.append((task.item_id, task.sample_index))
            time.sleep(self.delay_s)
            if task.uuid == self.fail_uuid:
                emit(TaskResult(task=task, error="HTTP 400: bad request"))
            elif self.config.method is Method.GENERATE:
                emit(TaskResult(task=task, response_text=f"answer to {task.uuid}"))
            else:
                emit(
                    TaskResult(
                        task=task,
                        label=self.label_of(task),
                        status=VerdictStatus.OK,
                        raw='{"classification": "tool_call"}',
                        scores={"loglikelihoods": [-4.0, -1.0, -3.0, -2.0]},
                    )
                )


def use(monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> list[FakeExecutor]:
    made: list[FakeExecutor] = []

    def make(config: RunConfig) -> FakeExecutor:
        made.append(FakeExecutor(config, **kwargs))
        return made[-1]

    monkeypatch.setattr(backends, "make_executor", make)
    return made


def config(method: Method = Method.MCQ_LOGPROB, **kwargs: Any) -> RunConfig:
    values: dict[str, Any] = {"model": "tiny", **kwargs}
    return RunConfig.of(method=method, backend=Backend.TRANSFORMERS, dataset="demo", **values)


def test_run_records_every_task_once(demo: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch)
    run_id = demo.runs.create(config(limit=5))
    info = demo.runs.execute(run_id)
    assert (info.status, info.n_done, info.n_error, info.n_total) == (RunStatus.DONE, 5, 0, 5)
    assert info.rater == "mcq_logprob:tiny" and info.fingerprint
    results = demo.runs.results(run_id)
    assert [r.label for r in results] == ["tool_call"] * 5
    assert demo.runs.describe(run_id)["template_hash"] == "abc123"
    rows = demo.metrics.metrics("demo", raters=["logprob:tiny"])
    assert rows and rows[0].metrics.n_scored == 5


def test_kill_and_resume_finishes_each_task_exactly_once(
    demo: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = use(monkeypatch, stop_after=3)
    run_id = demo.runs.create(config(limit=8, repeats=2))
    demo.runs.execute(run_id)  # stops after three tasks, as a killed worker would
    demo.store.runs.update(run_id, status=RunStatus.INTERRUPTED)
    made.clear()
    use(monkeypatch)
    demo.runs.resume(run_id, launch=False)
    info = demo.runs.execute(run_id)
    assert (info.status, info.n_done, info.n_total) == (RunStatus.DONE, 16, 16)
    per_task = task_counts(demo, run_id)
    assert len(per_task) == 16 and set(per_task.values()) == {1}


def test_repeats_of_a_verdict_method_give_its_stability(
    demo: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_two = {item.item_id for item in demo.store.ratings.items("demo")[:2]}

    def flips(task: Task) -> Label:  # the third sample of the first two items changes its mind
        return (
            Label.DIRECT
            if task.sample_index == 2 and task.item_id in first_two
            else (Label.TOOL_CALL)
        )

    use(monkeypatch, label_of=flips)
    run_id = demo.runs.create(config(Method.MCQ_INDEX, limit=6, repeats=3))
    assert demo.runs.execute(run_id).n_done == 18
    [row] = demo.metrics.metrics("demo", raters=["mcq-index:tiny"])
    assert row.metrics.n_scored == 6  # sample 0 is the verdict; repeats do not add units
    assert row.stability is not None and row.stability.over == "repeats"
    stab = row.stability.stability
    assert (stab.k, stab.n_processed) == (3, 6)
    assert stab.over_processed["stability_at_k"] == pytest.approx(4 / 6)
    assert stab.over_processed["mean_flip_rate"] == pytest.approx((2 * 0.5) / 6)
    readings = demo.metrics.readings("demo")
    assert {
        readings.values[(u.key, "mcq-index:tiny")]
        for u in readings.units
        if (u.key, "mcq-index:tiny") in readings.values
    } == {Label.TOOL_CALL}

    use(monkeypatch)  # a newer run of the same rater: only its own repeats count
    again = demo.runs.create(config(Method.MCQ_INDEX, limit=6, repeats=2))
    demo.runs.execute(again)
    [row] = demo.metrics.metrics("demo", raters=["mcq-index:tiny"])
    assert row.stability is not None and row.stability.stability.k == 2
    assert row.stability.stability.over_processed["stability_at_k"] == 1.0


def test_recording_twice_is_refused(demo: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch)
    run_id = demo.runs.create(config(limit=1))
    demo.runs.execute(run_id)
    [task] = demo.store.runs.tasks(
        demo.runs.get(run_id).config, demo.store.items.ids("demo", *_all())[:1]
    )
    again = TaskResult(task=task, label=Label.DIRECT, status=VerdictStatus.OK)
    assert demo.store.runs.record(run_id, again, demo.runs.get(run_id).config, None) is False


def test_per_task_errors_are_recorded_and_the_run_goes_on(
    demo: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = demo.store.ratings.items("demo")[0].uuid
    use(monkeypatch, fail_uuid=first)
    run_id = demo.runs.create(config(limit=4))
    info = demo.runs.execute(run_id)
    assert (info.n_done, info.n_error) == (3, 1)
    errors = [r for r in demo.runs.results(run_id) if r.status == "error"]
    assert errors[0].uuid == first and "400" in (errors[0].error or "")


def test_cannot_start_fails_at_once(demo: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, cannot_start="model path /nope not found: pass a local folder")
    run_id = demo.runs.create(config())
    with pytest.raises(RunStartError, match="/nope"):
        demo.runs.execute(run_id)
    info = demo.runs.get(run_id)
    assert info.status is RunStatus.FAILED and "/nope" in (info.error or "")


def test_generate_then_judge(demo: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch)
    gen = demo.runs.execute(
        demo.runs.create(config(Method.GENERATE, limit=3, target_model="fresh-model"))
    )
    assert gen.n_done == 3 and gen.rater is None
    judge = demo.runs.execute(
        demo.runs.create(config(Method.JUDGE, model="judge-x", target_model="fresh-model"))
    )
    assert judge.n_total == 3 and judge.n_done == 3  # only the items that have a response
    first = demo.store.ratings.items("demo")[0]
    detail = demo.review.detail(first.item_id, None)
    panel = next(p for p in detail.models if p.target_model == "fresh-model")
    verdict = panel.responses[0].by_kind(RaterKind.JUDGE)[0]
    assert verdict.rater.name == "judge-x" and verdict.rater.config["prompt"] == "fake-v1"


def test_judge_needs_a_target_and_openai_a_url(demo: Services) -> None:
    with pytest.raises(RunStartError, match="target-model"):
        demo.runs.create(config(Method.JUDGE))
    with pytest.raises(RunStartError, match="base-url"):
        demo.runs.create(
            RunConfig(method=Method.GENERATE, backend=Backend.OPENAI, model="m", dataset="demo")
        )


def test_cancel_stops_a_running_run(demo: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    made = use(monkeypatch, delay_s=0.05)
    run_id = demo.runs.create(config())
    original = demo.store.runs.record_many

    def record_then_cancel(*args: Any, **kwargs: Any) -> int:
        stored = original(*args, **kwargs)
        demo.store.runs.update(run_id, status=RunStatus.CANCELLING)
        return stored

    monkeypatch.setattr(demo.store.runs, "record_many", record_then_cancel)
    monkeypatch.setattr("w2c_tui.services.run_worker.time.monotonic", _clock())
    info = demo.runs.execute(run_id)
    assert info.status is RunStatus.CANCELLED and len(made[0].seen) < 30
    assert info.n_done == len(made[0].seen)  # what was done before it stopped is kept


def task_counts(svc: Services, run_id: int) -> dict[tuple[int, int], int]:
    """Checkpoint rows per (item, sample) of a run, read through SQLAlchemy."""
    from sqlalchemy import text

    with svc.store.engine.connect() as db:
        rows = db.execute(
            text(
                "SELECT item_id, sample_index, COUNT(*) FROM run_result WHERE run_id = :run "
                "GROUP BY item_id, sample_index"
            ),
            {"run": run_id},
        ).all()
    return {(int(i), int(s)): int(n) for i, s, n in rows}


def _clock() -> Any:
    ticks = iter(range(0, 10**6))
    return lambda: float(next(ticks))


def _all() -> tuple[Any, ...]:
    from w2c_tui.domain.review import ItemFilter, ReviewMode

    return ItemFilter(), ReviewMode.ITEM_QA, None
