"""What the tests of the openai backend against the tiny model's server share: the served
model's name, the slow fault's length, and small helpers (the fixtures are in conftest.py)."""

from __future__ import annotations

from fake_tasks import FAST_RETRY, make_config
from model_server import ModelOpenAI

from w2c_tui.domain.runs import Method, TaskResult
from w2c_tui.runs.api.executor import OpenAIExecutor

MODEL = "tiny-gpt2"
"""The name the tiny GPT-2 is served under."""
SLOW_S = 5.0
"""How long a `[[fault:slow:N]]` request waits (longer than the fault tests' timeout)."""


def api_executor(server: ModelOpenAI, method: Method, **options: object) -> OpenAIExecutor:
    """The openai backend on `server`'s tiny model, retrying fast."""
    config = make_config(server.url, method, model=MODEL, **options)
    return OpenAIExecutor(config, retry=FAST_RETRY)


def by_item(results: list[TaskResult]) -> dict[int, TaskResult]:
    """Results by item id."""
    return {r.task.item_id: r for r in results}
