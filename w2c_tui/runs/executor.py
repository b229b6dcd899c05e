"""The contract between the run worker and the executors the backends build (the backends
themselves: runs/backends/)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from w2c_tui.domain.runs import Task, TaskResult

Emit = Callable[[TaskResult], None]
"""Called once per finished task (from the worker's thread; it stores the result at once)."""
ShouldStop = Callable[[], bool]
"""True when the run was cancelled: finish the task in hand and return."""


class Executor(Protocol):
    """Runs one method of one configuration over tasks."""

    def check(self) -> None:
        """Fail fast with RunStartError saying what to fix (bad URL, missing key, no model…)."""

    def describe(self) -> dict[str, Any]:
        """What else identifies the computation (library versions, template hash, device)."""

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Process every task, calling `emit` as each finishes; a per-task failure is emitted as
        a TaskResult with `error` set and the run goes on."""
