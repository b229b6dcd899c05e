"""One event loop's view of the endpoint: the client, retried calls, and what the server accepts."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from w2c_tui.domain.runs import RunConfig
from w2c_tui.runs.api.client import Redactor
from w2c_tui.runs.api.retry import Attempts, RetryPolicy, error_text, with_retries

T = TypeVar("T")

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types import Completion
    from openai.types.chat import ChatCompletion


@dataclass
class Endpoint:
    """What the server was found to accept; `check()` fills it, `run()` also learns lazily."""

    structured: bool | None = None
    """The judge's json_schema response_format is accepted (None: not tried yet)."""
    echo_max_tokens: int = 0
    """0, or 1 where the server refuses max_tokens=0 on an echo request."""
    bos_switch: bool = True
    """The server accepts vLLM's `add_special_tokens` (our BOS switch) on /completions."""
    max_tokens_param: str = "max_tokens"
    """`max_completion_tokens` where the server refuses `max_tokens` (OpenAI reasoning models)."""


def refuses(exc: BaseException, *words: str) -> bool:
    """A 400/422 whose message names one of `words` (the server refused that parameter)."""
    import openai

    if not isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError):
        return False
    text = error_text(exc).lower()
    return any(word in text for word in words)


CHECK_RETRIES = 2
"""Start-up checks retry 429/5xx at most this often and never retry an unreachable server."""


class Api:
    """Retried chat and echo-completion calls for one run (or one check)."""

    def __init__(
        self,
        client: AsyncOpenAI,
        config: RunConfig,
        endpoint: Endpoint,
        policy: RetryPolicy,
        redact: Redactor,
        *,
        checking: bool = False,
    ) -> None:
        self.client = client
        self.config = config
        self.endpoint = endpoint
        self.policy = policy
        self.redact = redact
        self.retry_connection = not checking
        self.max_retries = config.max_retries
        if checking:
            self.max_retries = min(self.max_retries, CHECK_RETRIES)
        self.rng = random.Random()

    async def chat(
        self, attempts: Attempts, messages: list[dict[str, Any]], **extra: Any
    ) -> ChatCompletion:
        """A chat completion at the run's temperature and max_tokens (plus `extra` params);
        adapts once to servers that want `max_completion_tokens` (OpenAI's reasoning models)."""
        import openai

        while True:
            key = self.endpoint.max_tokens_param
            params: dict[str, Any] = {
                "model": self.config.model,
                "messages": messages,
                "temperature": self.config.temperature,
                **{k: v for k, v in extra.items() if k != "max_tokens"},
                key: extra.get("max_tokens", self.config.max_tokens),
            }
            try:
                return await self._chat_once(attempts, params)
            except openai.APIStatusError as exc:
                if key != "max_tokens" or not refuses(exc, "max_completion_tokens"):
                    raise
                self.endpoint.max_tokens_param = "max_completion_tokens"

    async def _chat_once(self, attempts: Attempts, params: dict[str, Any]) -> ChatCompletion:
        async def call() -> ChatCompletion:
            completion: ChatCompletion = await self.client.chat.completions.create(**params)
            return completion

        return await self._retried(attempts, call)

    async def echo(self, attempts: Attempts, text: str) -> tuple[Completion, int]:
        """`/completions` echoing `text` with per-token log-probabilities, and the max_tokens sent
        (0, nothing generated, where the server allows it); adapts once to servers refusing 0 or
        the BOS switch."""
        import openai

        while True:
            sent_bos, sent_max = self.endpoint.bos_switch, self.endpoint.echo_max_tokens
            try:
                return await self._echo_once(attempts, text, sent_bos, sent_max), sent_max
            except openai.APIStatusError as exc:
                if sent_bos and refuses(exc, "add_special_tokens"):
                    self.endpoint.bos_switch = False
                elif sent_max == 0 and refuses(exc, "max_tokens"):
                    self.endpoint.echo_max_tokens = 1
                else:
                    raise

    async def _echo_once(
        self, attempts: Attempts, text: str, bos_switch: bool, max_tokens: int
    ) -> Completion:
        params: dict[str, Any] = {
            "model": self.config.model,
            "prompt": text,
            "echo": True,
            "logprobs": 1,
            "max_tokens": max_tokens,
            "temperature": 0.0,
        }
        if bos_switch:
            params["extra_body"] = {"add_special_tokens": self.config.bos}

        async def call() -> Completion:
            completion: Completion = await self.client.completions.create(**params)
            return completion

        return await self._retried(attempts, call)

    async def _retried(self, attempts: Attempts, call: Callable[[], Awaitable[T]]) -> T:
        return await with_retries(
            call,
            policy=self.policy,
            max_retries=self.max_retries,
            attempts=attempts,
            redact=self.redact,
            rng=self.rng,
            retry_connection=self.retry_connection,
        )
