"""CriticTool's inference protocol (the official test.py), independent of any backend.

Internal samples: one request, the system prompt with the error-type instruction inserted
before ANCHOR. External samples: up to `retry_limit + 1` rounds; after a reply that repeats the
failed call exactly (the gold step [0]: same name, equal args), the reply goes in as an
assistant turn and the environment's error message (the turn before it) is repeated; any other
reply ends the sample. Every reply is kept, in order.

`ExternalLoop` is the loop as a state machine (ask `request()`, give the reply to `record()`),
so a batched, async or resumed backend drives it as it likes; `run_internal` / `run_external`
drive it with any `ChatFn` ("given messages, return the model's text").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from w2c_tui.domain.critictool import ExternalMode, Sample
from w2c_tui.domain.critictool_prompts import ANCHOR, INSTRUCTIONS, instruction_name
from w2c_tui.runs.critictool.parse import parse_reply

Messages = list[dict[str, str]]

RETRY_LIMIT = 3
"""Retries allowed after the first call (test.py's --retry_limit default): 4 calls at most."""
MAX_TOKENS = 512
"""The reference's generation length, on both of its backends."""
TEMPERATURE = 0.0
"""The reference decodes greedily (temperature 0) on both backends."""


class ChatFn(Protocol):
    """A model: given chat messages, return its text."""

    def __call__(self, messages: Messages) -> str:
        """The model's reply to `messages`."""
        ...


class ProtocolError(ValueError):
    """A sample the protocol cannot be applied to (no anchor; a replay that does not fit)."""


def insert_instruction(system_prompt: str, instruction: str) -> str:
    """`system_prompt` with `instruction` right before the first ANCHOR.

    The reference inserts before the last character when the anchor is missing; that is
    refused here.
    """
    index = system_prompt.find(ANCHOR)
    if index < 0:
        raise ProtocolError(f"the system prompt has no {ANCHOR!r} to insert the instruction before")
    return system_prompt[:index] + instruction + system_prompt[index:]


def build_messages(sample: Sample, mode: ExternalMode | None, cot: bool) -> Messages:
    """The first request for `sample`: its dataset turns, the instruction inserted.

    `mode` is None for internal samples, "skip" or "finish" for external ones. Roles are kept
    as in the data (`function` for tool responses): see `chat_roles`.
    """
    if (mode is None) != (sample.source == "internal"):
        raise ProtocolError(f"{sample.source} sample {sample.sample_id!r} with mode {mode!r}")
    instruction = INSTRUCTIONS[instruction_name(mode, cot)]
    turns = sample.original_turns
    messages = [{"role": turn.role, "content": turn.content} for turn in turns]
    messages[0]["content"] = insert_instruction(sample.system_prompt, instruction)
    return messages


def chat_roles(messages: Messages, function_role: str = "user") -> Messages:
    """`messages` with the `function` role (tool responses) renamed for a chat API or template.

    The reference's API template maps function → user (system, user, assistant unchanged), as
    its qwen/llama2/glm4/ministral local templates render tool responses as user turns.
    """
    return [
        {**message, "role": function_role} if message["role"] == "function" else dict(message)
        for message in messages
    ]


class ExternalLoop:
    """The external retry loop of one sample, as a state machine."""

    def __init__(
        self,
        sample: Sample,
        mode: ExternalMode,
        cot: bool,
        retry_limit: int = RETRY_LIMIT,
        replies: Sequence[str] = (),
    ) -> None:
        """Start the loop; `replies` recorded earlier (a resumed run) are replayed."""
        if retry_limit < 0:
            raise ProtocolError(f"retry_limit must be >= 0, got {retry_limit}")
        self.sample = sample
        self.retry_limit = retry_limit
        self.messages = build_messages(sample, mode, cot)
        self.replies: list[str] = []
        self.finished = False
        for reply in replies:
            if self.finished:
                raise ProtocolError(
                    f"sample {sample.sample_id!r}: {len(replies)} recorded replies, but the "
                    f"loop ends after {len(self.replies)}"
                )
            self.record(reply)

    def request(self) -> Messages | None:
        """The messages of the next round, or None when the sample is finished."""
        if self.finished:
            return None
        return [dict(message) for message in self.messages]

    def record(self, reply: str) -> None:
        """Take the model's reply to the current request."""
        if self.finished:
            raise ProtocolError(f"sample {self.sample.sample_id!r} is already finished")
        self.replies.append(reply)
        if parse_reply(reply).is_call(self.sample.gold[0]):
            self.messages.append({"role": "assistant", "content": reply})
            self.messages.append(dict(self.messages[-2]))
            self.finished = len(self.replies) > self.retry_limit
        else:
            self.finished = True


def run_internal(sample: Sample, chat: ChatFn, cot: bool, function_role: str = "user") -> str:
    """The reply of `chat` to an internal sample (one call)."""
    return chat(chat_roles(build_messages(sample, None, cot), function_role))


def run_external(
    sample: Sample,
    chat: ChatFn,
    mode: ExternalMode,
    cot: bool,
    retry_limit: int = RETRY_LIMIT,
    function_role: str = "user",
) -> tuple[str, ...]:
    """The replies of `chat` to an external sample, one per round."""
    loop = ExternalLoop(sample, mode, cot, retry_limit)
    while (messages := loop.request()) is not None:
        loop.record(chat(chat_roles(messages, function_role)))
    return tuple(loop.replies)
