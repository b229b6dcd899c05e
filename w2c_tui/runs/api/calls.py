"""One event loop's view of the endpoint: the client and its retried calls, adapting to what the
server accepts (runs/api/endpoint.py)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from w2c_tui.domain.run_options import OpenAIOptions
from w2c_tui.domain.runs import RunConfig
from w2c_tui.runs.api.client import Redactor
from w2c_tui.runs.api.echo import BatchMismatch, Echo, NoPromptLogprobs, read_echo, read_echoes
from w2c_tui.runs.api.endpoint import Endpoint, refuses
from w2c_tui.runs.api.retry import Attempts, RetryPolicy, with_retries

T = TypeVar("T")

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types import Completion
    from openai.types.chat import ChatCompletion


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
        self.options = config.options_as(OpenAIOptions)
        self.max_retries = self.options.max_retries
        if checking:
            self.max_retries = min(self.max_retries, CHECK_RETRIES)
        self.rng = random.Random()
        self._probing = asyncio.Lock()
        self.tokenizer: Any | None = None
        """The served model's tokenizer, for token-id prompts (set by the executor)."""

    def sample_seed(self, sample_index: int) -> int | None:
        """The seed of repeat `sample_index` (config.seed + index) when the request samples
        (temperature > 0) and the server takes seeds; None otherwise."""
        config = self.config
        if config.temperature <= 0 or config.seed is None or not self.endpoint.seed:
            return None
        return config.seed + sample_index

    async def chat(
        self,
        attempts: Attempts,
        messages: list[dict[str, Any]],
        *,
        seed: int | None = None,
        **extra: Any,
    ) -> ChatCompletion:
        """A chat completion at the run's temperature and max_tokens (plus `extra` params and
        `seed` where given); adapts once to servers that want `max_completion_tokens` (OpenAI's
        reasoning models) and to servers that refuse `seed`."""
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
            if seed is not None and self.endpoint.seed:
                params["seed"] = seed
            try:
                return await self._chat_once(attempts, params)
            except openai.APIStatusError as exc:
                if "seed" in params and refuses(exc, "seed"):
                    self.endpoint.seed = False
                    continue
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
        return await self._echo(attempts, text)

    async def echo_many(self, attempts: Attempts, texts: Sequence[str]) -> tuple[Completion, int]:
        """`/completions` echoing every text in one request (the list form of `prompt`: one choice
        per text, matched by its `index`), and the max_tokens sent; adapts as `echo` does. A
        refusal of the list itself is the caller's to handle (`echoes` does)."""
        return await self._echo(attempts, list(texts))

    async def echoes(self, attempts: Attempts, texts: Sequence[str]) -> tuple[list[Echo], bool]:
        """Each text's echoed prompt, in order, and whether they came in one request.

        Several texts go as one list-prompt request unless the server is known not to take it.
        A batch the server refuses (400/422) or answers in a way that cannot be matched to the
        texts (`read_echoes`) is asked again one text at a time, and while no batch has
        succeeded yet that also marks the endpoint (`batch_prompts` False) for the rest of the
        run; until the server's answer is known, one task at a time tries it."""
        if len(texts) > 1 and self.endpoint.batch_prompts is not False:
            if self.endpoint.batch_prompts is None:
                async with self._probing:
                    echoes = await self.echo_batch(attempts, texts)
            else:
                echoes = await self.echo_batch(attempts, texts)
            if echoes is not None:
                return echoes, True
        singles = []
        for text in texts:
            completion, max_tokens = await self.echo(attempts, text)
            singles.append(read_echo(completion, text, max_tokens))
        return singles, False

    async def echo_batch(self, attempts: Attempts, texts: Sequence[str]) -> list[Echo] | None:
        """The texts' echoed prompts from one list-prompt request; None where the server refuses
        it (400/422) or answers in a way that cannot be matched to the texts, and before any batch
        has succeeded also where it fails in any other way (5xx after the retries, a broken
        connection, an unreadable body): `batch_prompts` becomes False then, True on a success.
        A refused key (401/403) is raised, as is any other failure once batches are known to
        work (the task's error)."""
        import openai

        if self.endpoint.batch_prompts is False:
            return None
        try:
            completion, max_tokens = await self.echo_many(attempts, texts)
            echoes = read_echoes(completion, texts, max_tokens)
        except (openai.AuthenticationError, openai.PermissionDeniedError):
            raise
        except (openai.APIError, ValueError, BatchMismatch, NoPromptLogprobs) as exc:
            refused = (
                openai.BadRequestError,
                openai.UnprocessableEntityError,
                BatchMismatch,
                NoPromptLogprobs,
            )
            if self.endpoint.batch_prompts and not isinstance(exc, refused):
                raise
            if self.endpoint.batch_prompts is None:
                self.endpoint.batch_prompts = False
            return None
        self.endpoint.batch_prompts = True
        return echoes

    async def _echo(self, attempts: Attempts, prompt: str | list[str]) -> tuple[Completion, int]:
        import openai

        while True:
            sent_bos, sent_max = self.endpoint.bos_switch, self.endpoint.echo_max_tokens
            try:
                return await self._echo_once(attempts, prompt, sent_bos, sent_max), sent_max
            except openai.APIStatusError as exc:
                if sent_bos and refuses(exc, "add_special_tokens"):
                    self.endpoint.bos_switch = False
                elif sent_max == 0 and refuses(exc, "max_tokens"):
                    self.endpoint.echo_max_tokens = 1
                else:
                    raise

    async def _echo_once(
        self,
        attempts: Attempts,
        prompt: str | list[str],
        bos_switch: bool,
        max_tokens: int,
        *,
        bos: bool | None = None,
    ) -> Completion:
        params: dict[str, Any] = {
            "model": self.config.model,
            "prompt": prompt,
            "echo": True,
            "logprobs": 1,
            "max_tokens": max_tokens,
            "temperature": 0.0,
        }
        if bos_switch:
            params["extra_body"] = {"add_special_tokens": self.config.bos if bos is None else bos}

        async def call() -> Completion:
            completion: Completion = await self.client.completions.create(**params)
            return completion

        return await self._retried(attempts, call)

    async def token_completion(
        self, attempts: Attempts, prompts: Sequence[Sequence[int]], *, prompt_logprobs: bool
    ) -> Completion:
        """`/completions` for token-id prompts (one choice per prompt): with `prompt_logprobs`
        (vLLM's extra parameter) and one generated token, else echo + logprobs like `echo`."""
        params: dict[str, Any] = {
            "model": self.config.model,
            "prompt": [list(p) for p in prompts],
            "temperature": 0.0,
        }
        if prompt_logprobs:
            params.update(max_tokens=1, extra_body={"prompt_logprobs": 1})
        else:
            params.update(echo=True, logprobs=1, max_tokens=self.endpoint.echo_max_tokens)

        async def call() -> Completion:
            completion: Completion = await self.client.completions.create(**params)
            return completion

        return await self._retried(attempts, call)

    async def echo_plain(self, attempts: Attempts, text: str) -> Echo:
        """The echo of `text` without special tokens (the switch must be accepted)."""
        sent_max = self.endpoint.echo_max_tokens
        completion = await self._echo_once(attempts, text, True, sent_max, bos=False)
        return read_echo(completion, text, sent_max)

    async def bos_adds_a_token(self, attempts: Attempts, text: str) -> bool:
        """Whether `add_special_tokens=true` makes the server's tokenizer put a token in front of
        `text` (a BOS); the switch must be accepted (`bos_switch`)."""
        sent_max = self.endpoint.echo_max_tokens
        counts = []
        for bos in (True, False):
            completion = await self._echo_once(attempts, text, True, sent_max, bos=bos)
            counts.append(read_echo(completion, text, sent_max).n_prompt)
        return counts[0] > counts[1]

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
