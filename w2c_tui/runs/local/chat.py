"""JUDGE and MCQ_INDEX on a local chat model (its tokenizer's chat template), in batches.

The judge follows the same protocol as over the API (`runs/judge.py`): the versioned prompt as
one user turn; with `structured` (the default) the reply is constrained to the four JSON objects
`{"classification": "<label>"}` — the local counterpart of a JSON-schema response format, done
with `prefix_allowed_tokens_fn` over the token ids of those four replies — otherwise it is free
text, read strictly, with one repair turn for unreadable replies, and still unreadable means an
`invalid` verdict with every reply kept. The MCQ-index classifier is never constrained: it is
parsed as over the API (one digit 0–3, else the first standalone one, else `invalid`).
CRITICTOOL_JUDGE (`runs/critictool/judge.py`) is free text, read strictly, with the same single
repair turn; its replies are never constrained.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from w2c_tui.domain.runs import Method, Task, TaskResult
from w2c_tui.runs.critictool import judge as critictool_judge
from w2c_tui.runs.critictool.judge_prompt import judge_messages as critictool_messages
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.judge import (
    JUDGE_LABELS,
    JudgePrompt,
    judge_messages,
    judge_result,
    parse_judge_reply,
    repair_messages,
)
from w2c_tui.runs.local.generate import (
    AllowedTokens,
    generate_batch,
    in_batches,
    sample_seed,
    split_on_failure,
    stop_tokens,
)
from w2c_tui.runs.local.loading import LoadedModel
from w2c_tui.runs.mcq_index import mcq_index_messages, mcq_index_result
from w2c_tui.runs.prompts.chat import NO_CHAT_TEMPLATE, render_chat

Messages = list[dict[str, str]]


@dataclass(frozen=True)
class Conversation:
    """A task's messages and their token ids (rendered once)."""

    task: Task
    messages: Messages
    ids: list[int]


@dataclass(frozen=True)
class Constraint:
    """Generation restricted to a few exact replies: the step function and the longest reply."""

    allowed: AllowedTokens
    max_tokens: int


def reply_constraint(loaded: LoadedModel, replies: Sequence[str]) -> Constraint:
    """Allow exactly the token sequences of `replies` (each tokenised on its own), then the end
    of the turn; every prefix that matches none of them may only end."""
    tok = loaded.tokenizer
    sequences = [list(tok(reply, add_special_tokens=False)["input_ids"]) for reply in replies]
    stops = stop_tokens(loaded)
    end = tok.eos_token_id if tok.eos_token_id in stops else min(stops, default=None)
    closing = [end] if end is not None else [loaded.pad_id]

    def allowed(prefix: list[int]) -> list[int]:
        n = len(prefix)
        following = {s[n] for s in sequences if len(s) > n and s[:n] == prefix}
        return sorted(following) if following else closing

    longest = max(len(s) for s in sequences)
    return Constraint(allowed, longest + (1 if end is not None else 0))


def judge_replies() -> list[str]:
    """The four replies a structured judge may give (as `json.dumps` writes them)."""
    return [json.dumps({"classification": label}) for label in JUDGE_LABELS]


class ChatRunner:
    """Runs JUDGE or CRITICTOOL_JUDGE (with `prompt`) or MCQ_INDEX over tasks, `batch_size`
    prompts per pass."""

    def __init__(
        self,
        loaded: LoadedModel,
        method: Method,
        *,
        prompt: JudgePrompt | None,
        batch_size: int,
        temperature: float,
        max_tokens: int,
        structured: bool,
    ) -> None:
        assert method in (Method.JUDGE, Method.MCQ_INDEX, Method.CRITICTOOL_JUDGE)
        assert method is Method.MCQ_INDEX or prompt is not None
        self.loaded = loaded
        self.method = method
        self.prompt = prompt
        self.batch_size = max(1, batch_size)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.constraint = (
            reply_constraint(loaded, judge_replies())
            if structured and method is Method.JUDGE
            else None
        )

    @property
    def structured(self) -> bool:
        """Judge replies are constrained to the four JSON objects."""
        return self.constraint is not None

    def ids(self, messages: Messages, task: Task) -> list[int]:
        """The conversation's token ids, ready for the assistant's turn (the chat template
        writes any BOS itself, so the tokenizer adds no special tokens)."""
        text = render_chat(self.loaded.tokenizer, messages, task.uuid, advice=NO_CHAT_TEMPLATE)
        return list(self.loaded.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _messages(self, task: Task) -> Messages:
        if self.method is Method.MCQ_INDEX:
            return mcq_index_messages(task)
        assert self.prompt is not None
        if self.method is Method.CRITICTOOL_JUDGE:
            return critictool_messages(self.prompt, task)
        if task.response_text is None:
            raise ValueError("the task has no response to judge")
        return judge_messages(self.prompt, task)

    def _conversation(self, task: Task, messages: Messages) -> Conversation:
        return Conversation(task, messages, self.ids(messages, task))

    def _generate(self, conversations: list[Conversation]) -> list[str]:
        constraint = self.constraint
        outputs = generate_batch(
            self.loaded,
            [c.ids for c in conversations],
            constraint.max_tokens if constraint else self.max_tokens,
            self.temperature,
            sample_seed(conversations[0].task),
            constraint.allowed if constraint else None,
        )
        return [out.text for out in outputs]

    def _compute(self, batch: list[Conversation]) -> list[TaskResult]:
        if not batch:
            return []
        first = self._generate(batch)
        if self.method is Method.MCQ_INDEX:
            pairs = zip(batch, first, strict=True)
            return [mcq_index_result(c.task, reply) for c, reply in pairs]
        assert self.prompt is not None
        critic = self.method is Method.CRITICTOOL_JUDGE
        unread = [
            (i, self._conversation(c.task, self._repair(c, first[i])))
            for i, c in enumerate(batch)
            if not (
                critictool_judge.readable(first[i], c.task)
                if critic
                else parse_judge_reply(first[i]).label is not None
            )
        ]
        second: dict[int, str] = {}
        if unread:
            replies = self._generate([conversation for _, conversation in unread])
            second = {i: reply for (i, _), reply in zip(unread, replies, strict=True)}
        result = critictool_judge.judge_result if critic else judge_result
        return [
            result(
                c.task,
                self.prompt,
                [first[i]] if i not in second else [first[i], second[i]],
                self.structured,
            )
            for i, c in enumerate(batch)
        ]

    def _repair(self, conversation: Conversation, reply: str) -> Messages:
        if self.method is Method.CRITICTOOL_JUDGE:
            return critictool_judge.repair_messages(conversation.messages, reply, conversation.task)
        return repair_messages(conversation.messages, reply)

    def _batch(self, tasks: list[Task]) -> list[TaskResult]:
        prepared: list[Conversation] = []
        errors: list[TaskResult] = []
        for task in tasks:
            try:  # a template failure is this task's error
                prepared.append(self._conversation(task, self._messages(task)))
            except Exception as exc:
                errors.append(TaskResult(task=task, error=f"cannot render the prompt: {exc}"))
        where = "choosing an option" if self.method is Method.MCQ_INDEX else "judging"
        return errors + split_on_failure(prepared, self._compute, _task, where)

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Every task, emitting each batch's results as it finishes."""
        in_batches(tasks, self.batch_size, self._batch, emit, should_stop)


def _task(conversation: Conversation) -> Task:
    return conversation.task
