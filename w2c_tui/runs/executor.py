"""The contract between the run worker and the model backends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from w2c_tui.domain.runs import Backend, RunConfig, RunStartError, Task, TaskResult

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


def make_executor(config: RunConfig, models: Any | None = None) -> Executor:
    """The executor for `config.backend` (its heavy imports happen here, not before);
    `models`, a `runs.local.loading.ModelCache`, shares loaded local models between executors."""
    if config.backend is Backend.TRANSFORMERS:
        from w2c_tui.runs.local.executor import TransformersExecutor

        return TransformersExecutor(config, models)
    if config.backend is Backend.OPENAI:
        from w2c_tui.runs.api.executor import OpenAIExecutor

        return OpenAIExecutor(config)
    raise RunStartError(f"unknown backend {config.backend!r}")
