"""What the helper-process tests share: the tiny model's scorer, a condition wait, and the
check that two sets of MCQ results are the same items with the same scores."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from tiny_models import tiny_model_dir

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.local.loading import load
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
