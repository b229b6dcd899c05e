"""Tasks, configs and a runner for the openai backend's tests and the bench (they talk to
tests/runs/fake_server.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Backend, Method, RunConfig, Task, TaskResult
from w2c_tui.runs.api.executor import OpenAIExecutor
from w2c_tui.runs.api.retry import RetryPolicy

TOOL = json.dumps(
    {
        "name": "weather.get_current",
        "description": "Current weather in a city",
        "parameters": {
            "type": "dict",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "days": {"type": "integer"},
                "options": {"type": "dict", "properties": {"metric": {"type": "boolean"}}},
                "ratio": {"type": "float"},
                "extra": {"type": "any"},
            },
            "required": ["city"],
        },
    }
)
ANSWERS: tuple[tuple[str, str], ...] = (
    ("direct", "It is sunny and warm in Paris today."),
    ("tool_call", json.dumps({"name": "weather.get_current", "arguments": {"city": "Paris"}})),
    ("request_for_info", "Which city would you like the weather for?"),
    ("cannot_answer", "Sorry, I cannot look up the weather."),
)
FAST_RETRY = RetryPolicy(base_s=0.002, cap_s=0.01, max_retry_after_s=0.5)
"""Backoff shrunk for tests (the executor takes the policy as an argument)."""


def make_task(
    item_id: int,
    question: str,
    response: str | None = None,
    tools: tuple[str, ...] = (TOOL,),
    answers: tuple[tuple[str, str], ...] = ANSWERS,
) -> Task:
    """A task for item `item_id`."""
    return Task(
        item_id=item_id,
        uuid=f"item-{item_id}",
        question=question,
        tools=tools,
        answers=answers,
        gold=Label.TOOL_CALL,
        response_text=response,
    )


def make_config(url: str | None, method: Method, **options: Any) -> RunConfig:
    """An openai-backend config for the fake model at `url`."""
    values: dict[str, Any] = {"timeout_s": 5.0, "max_retries": 3, **options}
    return RunConfig.of(
        method=method,
        backend=Backend.OPENAI,
        model=values.pop("model", "fake-model"),
        dataset="fake",
        base_url=url,
        **values,
    )


def run_tasks(
    executor: Any, tasks: list[Task], should_stop: Callable[[], bool] = lambda: False
) -> list[TaskResult]:
    """Run and collect the emitted results."""
    results: list[TaskResult] = []
    executor.run(tasks, results.append, should_stop)
    return results


CHAT = "/v1/chat/completions"
COMPLETIONS = "/v1/completions"
"""The fake server's two endpoints, as its request log names them."""


def executor(server: Any, method: Method, **options: object) -> OpenAIExecutor:
    """The openai backend on the fake server at `server.url`, retrying fast."""
    return OpenAIExecutor(make_config(server.url, method, **options), retry=FAST_RETRY)


def by_item(results: list[TaskResult]) -> dict[int, TaskResult]:
    """Results by item id."""
    return {r.task.item_id: r for r in results}
