"""GENERATE: the target model answers an item, tools in the prompt or as native `tools`."""

from __future__ import annotations

import json
from typing import Any

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api import _template
from w2c_tui.runs.api.calls import Api
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
    native = api.config.native_tools
    messages, specs, names = messages_and_tools(task, native)
    extra: dict[str, Any] = {"tools": specs} if specs else {}
    completion = await api.chat(attempts, messages, **extra)
    if not completion.choices:
        return TaskResult(task=task, error="the reply has no choices")
    choice = completion.choices[0]
    message = choice.message
    calls = [c for c in (message.tool_calls or []) if getattr(c, "function", None) is not None]
    meta: dict[str, Any] = {
        "prompt": "native_tools" if native else "tools_in_prompt",
        "finish_reason": choice.finish_reason,
        "n_tool_calls": len(calls),
    }
    if calls:
        first = calls[0].function  # type: ignore[union-attr]
        raw = json.dumps(
            [{"name": c.function.name, "arguments": c.function.arguments} for c in calls],  # type: ignore[union-attr]
            ensure_ascii=False,
        )
        text = call_text(first.name, first.arguments, names)
        return TaskResult(task=task, response_text=text, raw=raw, meta=meta)
    return TaskResult(task=task, response_text=message.content or "", meta=meta)
