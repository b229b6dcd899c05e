"""A stand-in run backend for TUI tests: labels every task cannot_answer, loads no model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import RunConfig, Task, TaskResult


class Labeller:
    """A stand-in backend: cannot_answer for everything."""

    def __init__(self, config: RunConfig) -> None:
        self.config = config

    def check(self) -> None:
        pass

    def describe(self) -> dict[str, Any]:
        return {}

    def run(self, tasks: Sequence[Task], emit: Any, should_stop: Any) -> None:
        for task in tasks:
            emit(TaskResult(task=task, label=Label.CANNOT_ANSWER, status=VerdictStatus.OK))
