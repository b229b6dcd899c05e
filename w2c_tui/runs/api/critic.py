"""CRITICTOOL over an OpenAI-compatible server: one sample's rounds as chat completions (the
run's retries apply to each request; see runs/critictool/runner.py for the protocol)."""

from __future__ import annotations

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.retry import Attempts
from w2c_tui.runs.critictool.protocol import Messages
from w2c_tui.runs.critictool.runner import run_one


class NoChoices(RuntimeError):
    """The server answered without a choice."""


async def critictool(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """Every round of one CriticTool sample (the function role sent as user, as the
    reference's API template does)."""

    async def chat(messages: Messages) -> str:
        completion = await api.chat(
            attempts, list(messages), seed=api.sample_seed(task.sample_index)
        )
        choices = completion.choices or []
        if not choices:
            raise NoChoices("the reply has no choices")
        return choices[0].message.content or ""

    return await run_one(task, chat, api.config)
