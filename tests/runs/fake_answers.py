"""What the fake OpenAI server answers: a fault's error, a chat reply (scripted by markers),
a completion choice with echoed log-probs (tests/runs/fake_server.py dispatches to them)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import formatdate
from typing import Any

from fake_wire import GENERATED, REPAIR, REPLY, Reply, _error, _json, token_logprob, tokenize


def fault_answer(
    kind: str, auth: str | None, retry_after: str, slow_s: float
) -> tuple[int, dict[str, str], bytes] | None:
    """The answer of a `[[fault:KIND:N]]` request (None: answer it normally, after `slow`)."""
    if kind == "429":
        return _error(429, "Rate limit reached", headers={"Retry-After": retry_after})
    if kind == "429date":
        when = formatdate(time.time() + 2, usegmt=True)
        return _error(429, "Rate limit reached", headers={"Retry-After": when})
    if kind == "500":
        return _error(500, "Internal server error")
    if kind == "slow":
        time.sleep(slow_s)
        return None
    if kind == "badjson":
        return 200, {"Content-Type": "application/json"}, b'{"id": "x", "choices": [ {'
    if kind == "400":
        return _error(400, "Bad request: the prompt is too long")
    if kind == "400echo":
        return _error(400, f"Bad request from client with Authorization: {auth}")
    raise AssertionError(f"unknown fault {kind}")


@dataclass(frozen=True)
class ChoiceOptions:
    """What shapes a /v1/completions choice (FakeOpenAI's fields of the same names)."""

    bos: str | None
    silent_stop: bool
    echo: bool
    logprobs: bool
    display: Callable[[str], str] | None


def completion_choice(
    body: dict[str, Any], prompt: str, max_tokens: int, options: ChoiceOptions
) -> tuple[dict[str, Any], int, int]:
    """One prompt's choice (without `index`), its prompt tokens and generated tokens."""
    tokens = tokenize(prompt)
    if options.bos is not None and body.get("add_special_tokens", True):
        tokens = [options.bos, *tokens]
    silent = options.silent_stop and prompt.endswith(".")
    generated = [GENERATED] if max_tokens >= 1 and not silent else []
    echoed = bool(body.get("echo")) and options.echo and options.logprobs
    shown = (tokens if echoed else []) + generated
    values: list[float | None] = []
    if echoed:
        values = [None] + [token_logprob(t) for t in tokens[1:]]
    values += [-0.5] * len(generated)
    strings = [options.display(t) if options.display else t for t in shown]
    offsets, at = [], 0
    for s in strings:
        offsets.append(at)
        at += len(s)
    logprobs = None
    if body.get("logprobs") is not None and options.logprobs:
        logprobs = {
            "tokens": strings,
            "token_logprobs": values,
            "text_offset": offsets,
            "top_logprobs": [
                None if v is None else {s: v} for s, v in zip(strings, values, strict=True)
            ],
        }
    text = (prompt if echoed else "") + "".join(generated)
    choice = {"text": text, "logprobs": logprobs, "finish_reason": "length"}
    return choice, len(tokens), len(generated)


@dataclass(frozen=True)
class ChatOptions:
    """What shapes a /v1/chat/completions answer (FakeOpenAI's fields of the same names)."""

    structured: bool
    reasoning_model: bool
    n_choices: str
    default_reply: str


def chat_refusal(body: dict[str, Any], options: ChatOptions) -> Reply | None:
    """The 400 a chat request gets for a parameter this server is set to refuse, or None."""
    if "response_format" in body and not options.structured:
        return _error(
            400, "response_format of type json_schema is not supported", param="response_format"
        )
    if options.reasoning_model and "max_tokens" in body:
        return _error(
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead.",
            param="max_tokens",
        )
    return None


def chat_answer(body: dict[str, Any], options: ChatOptions) -> Reply:
    """The answer to /v1/chat/completions: a scripted reply, a tool call, or a refusal."""
    refused = chat_refusal(body, options)
    if refused is not None:
        return refused
    n = int(body.get("n") or 1)
    if n > 1 and options.n_choices == "refuse":
        return _error(400, "n > 1 is not supported: 'n' must be 1", param="n")
    messages = body.get("messages") or []
    text = "\n".join(str(m.get("content") or "") for m in messages)
    repair = any(m.get("role") == "assistant" for m in messages)
    message: dict[str, Any] = {"role": "assistant", "content": None}
    finish = "stop"
    tools = body.get("tools") or []
    if "[[toolcall]]" in text and tools:
        name = tools[0]["function"]["name"]
        message["tool_calls"] = [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps({"city": "Paris"})},
            }
        ]
        finish = "tool_calls"
    else:
        first = REPLY.search(text)
        again = REPAIR.search(text)
        if repair and again:
            message["content"] = again.group(1)
        elif first:
            message["content"] = first.group(1)
        else:
            message["content"] = options.default_reply
    choices = [{"index": 0, "message": message, "finish_reason": finish}]
    if n > 1 and options.n_choices == "yes" and message["content"] is not None:
        choices = [
            {
                "index": i,
                "message": {**message, "content": f"{message['content']} #{i}"},
                "finish_reason": finish,
            }
            for i in range(n)
        ]
    return _json(
        200,
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": choices,
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        },
    )
