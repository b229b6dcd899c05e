"""JUDGE: a judge model classifies a response; one repair turn, then `invalid` with the raw text."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.endpoint import refuses
from w2c_tui.runs.api.retry import Attempts
from w2c_tui.runs.judge import (
    JudgePrompt,
    judge_messages,
    judge_response_format,
    judge_result,
    parse_judge_reply,
    repair_messages,
)


async def ask(
    api: Api,
    attempts: Attempts,
    messages: list[dict[str, Any]],
    seed: int | None = None,
    response_format: dict[str, Any] | None = None,
) -> tuple[str, bool]:
    """(reply text, structured output requested and accepted); drops response_format for good on
    a server that refuses it (a 400/422 naming response_format or json_schema). Accepted is not
    enforced: some servers ignore the field (`transformers serve` does), so replies are always
    parsed as strictly as without it."""
    import openai

    if api.config.structured and api.endpoint.structured is not False:
        try:
            completion = await api.chat(
                attempts,
                messages,
                seed=seed,
                response_format=response_format or judge_response_format(),
            )
            api.endpoint.structured = True
            return _content(completion), True
        except openai.APIStatusError as exc:
            if not refuses(exc, "response_format", "json_schema"):
                raise
            api.endpoint.structured = False
    return _content(await api.chat(attempts, messages, seed=seed)), False


def _content(completion: Any) -> str:
    if not completion.choices:
        return ""
    return str(completion.choices[0].message.content or "")


async def judge(api: Api, prompt: JudgePrompt, task: Task, attempts: Attempts) -> TaskResult:
    """A verdict on `task.response_text`; never a label the replies do not state."""
    if task.response_text is None:
        return TaskResult(task=task, error="the task has no response to judge")
    messages = judge_messages(prompt, task)
    seed = api.sample_seed(task.sample_index)
    reply, structured = await ask(api, attempts, messages, seed)
    replies = [reply]
    if parse_judge_reply(reply).label is None:
        repair = repair_messages(messages, reply)
        again, repaired_structured = await ask(api, attempts, repair, seed)
        structured = structured or repaired_structured
        replies.append(again)
    result = judge_result(task, prompt, replies, structured)
    if seed is not None and api.endpoint.seed:
        result = replace(result, meta={**result.meta, "seed": seed})
    return result
