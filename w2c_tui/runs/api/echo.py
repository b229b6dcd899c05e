"""Reading an echoed prompt's log-probabilities and summing a continuation's share of them.

The continuation's tokens are found from `text_offset`: those starting at or after the context's
character length (a token straddling the boundary belongs to the context, as in lm-eval's split by
the context's token count; straddles are counted). vLLM derives offsets from token strings, which
can differ from the text sent (a BOS token's text in front, byte-level tokens): a leading extra
prefix is allowed for, anything else makes `span_by_offsets` give None, and the caller splits by
the context's own token count instead (`span_by_count`, lm-eval's rule exactly).

A reply without echoed prompt log-probabilities raises `NoPromptLogprobs`: we never score the
token the server generated (the API suite's bug, WHEN2CALL_REFERENCE.md §4.4).

Which echoed tokens are the prompt's: a reply to one prompt says so in `usage.prompt_tokens`
(else all its tokens less the `max_tokens` generated). A reply to the list form of `prompt`
(`read_echoes`) has one choice per prompt, matched by `choice.index`, and a usage summed over the
prompts, so each choice's prompt is all its tokens less the `max_tokens` generated (with
max_tokens 0, all of them; with 1, all but the last), and the sum of those counts must equal
`usage.prompt_tokens` where the server sends it. A reply that does not add up raises
`BatchMismatch`, and the caller asks again one prompt at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from openai.types import Completion, CompletionChoice

NO_ECHO_HELP = (
    "this endpoint does not return prompt log-probabilities (echo+logprobs); use vLLM or the "
    "transformers backend"
)


class NoPromptLogprobs(Exception):
    """The reply carries no log-probabilities for the echoed prompt."""


class BatchMismatch(Exception):
    """A reply to a list of prompts whose choices cannot be matched to the prompts one to one."""


@dataclass(frozen=True)
class Span:
    """Continuation tokens `start:stop` of the echoed prompt."""

    start: int
    stop: int
    straddles: bool = False


@dataclass(frozen=True)
class Echo:
    """The echoed prompt's tokens (generated tokens dropped)."""

    text: str
    tokens: list[str]
    logprobs: list[float | None]
    offsets: list[int] | None
    top: list[dict[str, float]] | None

    @property
    def n_prompt(self) -> int:
        """Number of prompt tokens (BOS included where the server adds one)."""
        return len(self.tokens)

    def span_by_offsets(self, context_chars: int) -> Span | None:
        """The continuation by character offsets, or None when offsets do not match the text."""
        if self.offsets is None or len(self.offsets) != len(self.tokens):
            return None
        joined = "".join(self.tokens)
        if not joined.endswith(self.text):
            return None
        base = self.offsets[0]
        position = 0
        for token, offset in zip(self.tokens, self.offsets, strict=True):
            if offset - base != position:
                return None
            position += len(token)
        boundary = len(joined) - len(self.text) + context_chars
        starts = [offset - base for offset in self.offsets]
        start = next((i for i, at in enumerate(starts) if at >= boundary), len(starts))
        straddles = start > 0 and starts[start - 1] + len(self.tokens[start - 1]) > boundary
        return Span(start, len(starts), straddles)

    def span_by_count(self, context_tokens: int) -> Span:
        """The continuation as the tokens after the context's own token count."""
        if context_tokens > self.n_prompt:
            raise NoPromptLogprobs(
                f"the context has {context_tokens} tokens but context+continuation only "
                f"{self.n_prompt}"
            )
        return Span(context_tokens, self.n_prompt)

    def total(self, span: Span) -> float:
        """Sum of the span's log-probabilities (0.0 for an empty span, as lm-eval sums)."""
        values = self.logprobs[span.start : span.stop]
        if any(value is None or not math.isfinite(value) for value in values):
            raise NoPromptLogprobs("a continuation token has no log-probability")
        return float(sum(value for value in values if value is not None))

    def greedy(self, span: Span) -> bool | None:
        """Every span token is the most likely one (None when no top log-probs came back)."""
        if self.top is None or len(self.top) < span.stop:
            return None
        for index in range(span.start, span.stop):
            top, value = self.top[index], self.logprobs[index]
            if not top or value is None:
                return None
            if value < max(top.values()) - 1e-9:
                return False
        return True


def read_echo(completion: Completion, text: str, max_tokens: int) -> Echo:
    """The echoed prompt of a `/completions` reply to `text`; NoPromptLogprobs if not echoed."""
    if not completion.choices:
        raise NoPromptLogprobs("the reply has no choices")
    choice = completion.choices[0]
    usage = completion.usage
    if usage is not None and usage.prompt_tokens > 0:
        n_prompt = usage.prompt_tokens
    else:
        n_prompt = _n_tokens(choice) - max_tokens
    return _read_choice(choice, text, n_prompt)


def read_echoes(completion: Completion, texts: Sequence[str], max_tokens: int) -> list[Echo]:
    """The echoed prompts of a `/completions` reply to the list `texts`, in their order (see the
    module docstring): BatchMismatch unless there is one choice per text, numbered by `index`,
    with prompt token counts that add up to `usage.prompt_tokens`; NoPromptLogprobs if a choice
    is not echoed."""
    choices = _by_index(completion.choices or [], len(texts))
    echoes = [
        _read_choice(choice, text, _n_tokens(choice) - max_tokens)
        for choice, text in zip(choices, texts, strict=True)
    ]
    usage = completion.usage
    if usage is not None and usage.prompt_tokens > 0:
        counted = sum(echo.n_prompt for echo in echoes)
        if counted != usage.prompt_tokens:
            raise BatchMismatch(
                f"the choices hold {counted} prompt tokens but usage says {usage.prompt_tokens}"
            )
    return echoes


def _by_index(choices: list[CompletionChoice], n: int) -> list[CompletionChoice]:
    """The choices in prompt order by their `index`; BatchMismatch unless it numbers 0..n-1."""
    if len(choices) != n:
        raise BatchMismatch(f"the reply has {len(choices)} choices for {n} prompts")
    ordered: list[CompletionChoice | None] = [None] * n
    for choice in choices:
        index = getattr(choice, "index", None)
        if type(index) is not int or not 0 <= index < n or ordered[index] is not None:
            raise BatchMismatch("the choices' indexes do not number the prompts")
        ordered[index] = choice
    return [choice for choice in ordered if choice is not None]


def _n_tokens(choice: CompletionChoice) -> int:
    """Tokens in the choice's log-probabilities (echoed prompt plus generated)."""
    logprobs = choice.logprobs
    if logprobs is None or not logprobs.tokens or logprobs.token_logprobs is None:
        raise NoPromptLogprobs("the reply has no log-probabilities")
    return len(logprobs.tokens)


def _read_choice(choice: CompletionChoice, text: str, n_prompt: int) -> Echo:
    """The choice's first `n_prompt` tokens as the echo of `text`."""
    logprobs = choice.logprobs
    if logprobs is None or not logprobs.tokens or logprobs.token_logprobs is None:
        raise NoPromptLogprobs("the reply has no log-probabilities")
    if not (choice.text or "").startswith(text):
        raise NoPromptLogprobs("the reply does not echo the prompt")
    if n_prompt < 1 or n_prompt > len(logprobs.tokens) or len(logprobs.token_logprobs) < n_prompt:
        raise NoPromptLogprobs("the log-probabilities do not cover the echoed prompt")
    offsets = logprobs.text_offset[:n_prompt] if logprobs.text_offset else None
    top = logprobs.top_logprobs[:n_prompt] if logprobs.top_logprobs else None
    return Echo(
        text=text,
        tokens=list(logprobs.tokens[:n_prompt]),
        logprobs=[value for value in logprobs.token_logprobs[:n_prompt]],
        offsets=offsets,
        top=top,
    )
