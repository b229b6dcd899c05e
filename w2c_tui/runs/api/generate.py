"""GENERATE: the target model answers an item, tools in the prompt or as native `tools`."""

from __future__ import annotations

import json
from typing import Any

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api import _template
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.choices import by_choice_index
from w2c_tui.runs.api.retry import Attempts
from w2c_tui.runs.api.tools import call_text, native_tools


def messages_and_tools(
    task: Task, native: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, str]]:
    """(messages, native tools, API name → dataset name) for one item.

    Tools in the prompt: the default template split into a system and a user message
    (WHEN2CALL_REFERENCE.md §4.2). Native tools: the question alone as the user message, as the
    official inference script sends it (§3.1), with `tools` only when the item has some.
    """
    if native:
        specs, names = native_tools(task.tools)
        return [{"role": "user", "content": task.question}], specs, names
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": _template.system_message()},
        {"role": "user", "content": _template.user_message(task.question, task.tools)},
    ]
    return messages, [], {}


async def generate(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """The response text: the message content, or the first native tool call as JSON."""
    [result] = await generate_n(api, [task], attempts)
    return result


async def generate_n(api: Api, tasks: list[Task], attempts: Attempts) -> list[TaskResult]:
    """One request for the repeats of one item: `n = len(tasks)` choices, choice j for task j
    (`n` is left out for a single task). A reply with another number of choices raises
    `NotNChoices` (the caller asks again one request per repeat)."""
    native = api.options.native_tools
    messages, specs, names = messages_and_tools(tasks[0], native)
    extra: dict[str, Any] = {"tools": specs} if specs else {}
    if len(tasks) > 1:
        extra["n"] = len(tasks)
    seed = api.sample_seed(tasks[0].sample_index)
    completion = await api.chat(attempts, messages, seed=seed, **extra)
    choices = by_choice_index(completion.choices or [], len(tasks))
    sent = {"seed": seed if api.endpoint.seed else None, "n": len(tasks)}
    return [
        _result(task, choice, native, names, sent)
        if choice is not None
        else TaskResult(task=task, error="the reply has no choices")
        for task, choice in zip(tasks, choices, strict=True)
    ]


def _result(
    task: Task, choice: Any, native: bool, names: dict[str, str], sent: dict[str, Any]
) -> TaskResult:
    """One choice as a response: its text, or its first native tool call as JSON."""
    message = choice.message
    calls = [c for c in (message.tool_calls or []) if getattr(c, "function", None) is not None]
    meta: dict[str, Any] = {
        "prompt": "native_tools" if native else "tools_in_prompt",
        "finish_reason": choice.finish_reason,
        "n_tool_calls": len(calls),
        **{k: v for k, v in sent.items() if v is not None},
    }
    if calls:
        first = calls[0].function
        raw = json.dumps(
            [{"name": c.function.name, "arguments": c.function.arguments} for c in calls],
            ensure_ascii=False,
        )
        text = call_text(first.name, first.arguments, names)
        return TaskResult(task=task, response_text=text, raw=raw, meta=meta)
    return TaskResult(task=task, response_text=message.content or "", meta=meta)
