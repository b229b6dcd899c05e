"""CRITICTOOL over an OpenAI-compatible server: one sample's rounds as chat completions (the
run's retries apply to each request; see runs/critictool/runner.py for the protocol); and
CRITICTOOL_JUDGE: a judge model answers one unit's label questions (runs/critictool/judge.py)."""

from __future__ import annotations

from dataclasses import replace

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.judging import ask
from w2c_tui.runs.api.retry import Attempts
from w2c_tui.runs.critictool import judge
from w2c_tui.runs.critictool.judge_prompt import judge_messages, task_questions
from w2c_tui.runs.critictool.protocol import Messages
from w2c_tui.runs.critictool.runner import run_one
from w2c_tui.runs.judge import JudgePrompt


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


async def critictool_judge(
    api: Api, prompt: JudgePrompt, task: Task, attempts: Attempts
) -> TaskResult:
    """The judge's answers on the task's unit: one request, one repair turn if unreadable."""
    if task.critic is None:
        return TaskResult(task=task, error="the task has no CriticTool sample to judge")
    messages = judge_messages(prompt, task)
    wanted = judge.response_format(task_questions(task))
    seed = api.sample_seed(task.sample_index)
    reply, structured = await ask(api, attempts, messages, seed, wanted)
    replies = [reply]
    if not judge.readable(reply, task):
        repair = judge.repair_messages(messages, reply, task)
        again, repaired_structured = await ask(api, attempts, repair, seed, wanted)
        structured = structured or repaired_structured
        replies.append(again)
    result = judge.judge_result(task, prompt, replies, structured)
    if seed is not None and api.endpoint.seed and not result.error:
        result = replace(result, meta={**result.meta, "seed": seed})
    return result
