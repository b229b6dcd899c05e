"""CriticTool's protocol on a run's tasks, for any backend: a batched driver (local models) and
an async one (OpenAI-compatible servers). A task is one sample; its result carries every
reply (one per round) and how the evaluators parse each."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from w2c_tui.domain.critictool import ExternalMode
from w2c_tui.domain.runs import RunConfig, Task, TaskResult
from w2c_tui.runs.critictool.parse import parse_reply
from w2c_tui.runs.critictool.protocol import (
    ExternalLoop,
    Messages,
    ProtocolError,
    build_messages,
    chat_roles,
)

BatchChat = Callable[[list[Messages]], list[str]]
"""A model answering several conversations at once (in order)."""
AsyncChat = Callable[[Messages], Awaitable[str]]
"""A model answering one conversation."""
MODES: tuple[ExternalMode, ...] = ("skip", "finish")


def parsed_round(raw: str) -> dict[str, Any]:
    """One reply as the evaluators parse it, JSON-safe (odd Python literals as their repr)."""
    reply = parse_reply(raw)
    value = {
        "error": reply.error,
        "thought": reply.thought,
        "name": reply.name,
        "args": reply.args,
        "parsed_as": reply.parsed_as,
    }
    parsed: dict[str, Any] = json.loads(json.dumps(value, ensure_ascii=False, default=repr))
    return parsed


def config_mode(config: RunConfig) -> ExternalMode:
    """The run's external mode (ProtocolError for anything but skip or finish)."""
    for mode in MODES:
        if config.critic_mode == mode:
            return mode
    raise ProtocolError(f"CriticTool mode must be skip or finish, not {config.critic_mode!r}")


def _loop(task: Task, config: RunConfig) -> ExternalLoop | Messages:
    sample = task.critic
    if sample is None:
        raise ProtocolError(f"item {task.uuid!r} is not a CriticTool sample")
    if sample.source == "internal":
        return build_messages(sample, None, config.critic_cot)
    return ExternalLoop(sample, config_mode(config), config.critic_cot, config.retry_limit)


def critictool_result(task: Task, replies: Sequence[str], config: RunConfig) -> TaskResult:
    """The task's result: the replies (JSON list as the response text) and their parse."""
    assert task.critic is not None
    external = task.critic.source == "external"
    return TaskResult(
        task=task,
        response_text=json.dumps(list(replies), ensure_ascii=False),
        meta={
            "critictool": True,
            "rounds": list(replies),
            "parsed": [parsed_round(r) for r in replies],
            "mode": config_mode(config) if external else None,
            "cot": config.critic_cot,
        },
    )


def run_batch(tasks: Sequence[Task], chat: BatchChat, config: RunConfig) -> list[TaskResult]:
    """Every task of a batch: each round asks all unfinished samples at once."""
    results: dict[int, TaskResult] = {}
    states: dict[int, ExternalLoop | Messages] = {}
    replies: dict[int, list[str]] = {}
    for index, task in enumerate(tasks):
        try:
            states[index] = _loop(task, config)
            replies[index] = []
        except ProtocolError as error:
            results[index] = TaskResult(task=task, error=str(error))
    while True:
        asked: list[tuple[int, Messages]] = []
        for index, state in states.items():
            if isinstance(state, ExternalLoop):
                request = state.request()
                if request is not None:
                    asked.append((index, request))
            elif not replies[index]:
                asked.append((index, state))
        if not asked:
            break
        answers = chat([chat_roles(messages) for _, messages in asked])
        for (index, _), answer in zip(asked, answers, strict=True):
            state = states[index]
            if isinstance(state, ExternalLoop):
                state.record(answer)
            replies[index].append(answer)
    for index in states:
        results[index] = critictool_result(tasks[index], replies[index], config)
    return [results[index] for index in range(len(tasks))]


async def run_one(task: Task, chat: AsyncChat, config: RunConfig) -> TaskResult:
    """One task over an async chat (errors other than protocol ones propagate)."""
    try:
        state = _loop(task, config)
    except ProtocolError as error:
        return TaskResult(task=task, error=str(error))
    if not isinstance(state, ExternalLoop):
        return critictool_result(task, [await chat(chat_roles(state))], config)
    while (messages := state.request()) is not None:
        state.record(await chat(chat_roles(messages)))
    return critictool_result(task, state.replies, config)


def critictool_describe(config: RunConfig) -> dict[str, Any]:
    """What identifies a CriticTool run's protocol (ProtocolError for a bad mode or limit)."""
    from w2c_tui.domain.critictool_prompts import INSTRUCTIONS, instruction_name

    if config.retry_limit < 0:
        raise ProtocolError(f"--retry-limit must be at least 0, got {config.retry_limit}")
    mode = config_mode(config)
    names = [instruction_name(None, config.critic_cot), instruction_name(mode, config.critic_cot)]
    return {
        "critictool_mode": mode,
        "critictool_cot": config.critic_cot,
        "critictool_retry_limit": config.retry_limit,
        "critictool_instructions": {
            name: hashlib.sha256(INSTRUCTIONS[name].encode("utf-8")).hexdigest()[:12]
            for name in names
        },
    }
