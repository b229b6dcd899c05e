"""Token-id prompts for log-prob MCQ over an OpenAI-compatible server (vLLM's /v1/completions
takes `prompt` as lists of token ids): we tokenise context and continuation locally with the
served model's tokenizer exactly as lm-eval does (`tok(ctx) + tok(ctx+cont)[len(tok(ctx)):]`)
and send the ids, so an item whose tokens would merge across the prompt/answer boundary is
scored as the reference scores it instead of being invalid.

The reply is read by prompt position: `prompt_logprobs` (vLLM's extra parameter, each position
keyed by token id with its rank) where the server offers it, else echo + logprobs. The start-up
probe (`probe_tokens`) checks that the server takes ids and that our tokenizer is the server's:
the probe text's own echo must have as many tokens, with the same log-probabilities.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from w2c_tui.domain.run_options import OpenAIOptions
from w2c_tui.domain.runs import RunConfig, RunStartError
from w2c_tui.runs.api.echo import BatchMismatch, Echo, NoPromptLogprobs, _by_index

if TYPE_CHECKING:
    from openai.types import Completion, CompletionChoice

SAME_LOGPROB = 1e-3
"""How far the probe's log-probs may differ between its text and its ids (float noise)."""


@dataclass(frozen=True)
class TokenRow:
    """One prompt's log-probabilities by position (None at position 0) and whether each
    position's token is the most likely one (None when the reply does not say)."""

    values: list[float | None]
    greedy: list[bool | None]

    def total(self, start: int, stop: int) -> float:
        """Sum over positions start..stop-1; NoPromptLogprobs where one is missing."""
        values = self.values[start:stop]
        if any(v is None or not math.isfinite(v) for v in values):
            raise NoPromptLogprobs("a continuation token has no log-probability")
        return float(sum(v for v in values if v is not None))

    def all_greedy(self, start: int, stop: int) -> bool | None:
        """Every position start..stop-1 holds the most likely token (None: unknown)."""
        flags = self.greedy[start:stop]
        return None if any(f is None for f in flags) else all(bool(f) for f in flags)


def load_api_tokenizer(config: RunConfig, options: OpenAIOptions) -> tuple[Any | None, str | None]:
    """(the served model's tokenizer, None) or (None, why prompts will go as text). A tokenizer
    named with --tokenizer must load; the model name is only tried."""
    name = options.tokenizer or config.model
    try:
        from transformers import AutoTokenizer
    except ImportError:
        if options.tokenizer:
            raise RunStartError(
                "--tokenizer needs the transformers package: pip install 'w2c-tui[local]'"
            ) from None
        return None, "transformers is not installed (pip install 'w2c-tui[local]')"
    try:
        return AutoTokenizer.from_pretrained(name, local_files_only=True), None
    except (OSError, ValueError) as exc:
        if options.tokenizer:
            raise RunStartError(
                f"cannot load the tokenizer {name!r} ({exc}); give a local folder or the id of "
                "a model in the Hugging Face cache"
            ) from None
        return None, f"no local tokenizer for {name!r}: give --tokenizer for exact token splits"


def encode(tokenizer: Any, texts: list[str]) -> list[list[int]]:
    """Token ids without special tokens (lm-eval ≤ 0.4.9.1)."""
    return [list(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]]


def read_rows(
    completion: Completion, prompts: Sequence[Sequence[int]], *, prompt_logprobs: bool
) -> list[TokenRow]:
    """Each prompt's row, matched by `choice.index`: BatchMismatch unless one choice per prompt;
    NoPromptLogprobs unless every prompt position has its log-prob."""
    choices = _by_index(completion.choices or [], len(prompts))
    return [
        _from_prompt_logprobs(choice, ids) if prompt_logprobs else _from_echo(choice, ids)
        for choice, ids in zip(choices, prompts, strict=True)
    ]


def _from_prompt_logprobs(choice: CompletionChoice, ids: Sequence[int]) -> TokenRow:
    entries = getattr(choice, "prompt_logprobs", None)
    if entries is None and choice.model_extra:
        entries = choice.model_extra.get("prompt_logprobs")
    if not isinstance(entries, list) or len(entries) < len(ids):
        raise NoPromptLogprobs("the reply has no prompt_logprobs for every prompt token")
    values: list[float | None] = [None]
    greedy: list[bool | None] = [None]
    for token, entry in zip(ids[1:], entries[1 : len(ids)], strict=True):
        own = entry.get(str(token)) if isinstance(entry, dict) else None
        if not isinstance(own, dict) or not isinstance(own.get("logprob"), int | float):
            raise NoPromptLogprobs(f"prompt_logprobs lack the prompt's own token {token}")
        values.append(float(own["logprob"]))
        rank = own.get("rank")
        greedy.append(rank == 1 if isinstance(rank, int) else None)
    return TokenRow(values, greedy)


def _from_echo(choice: CompletionChoice, ids: Sequence[int]) -> TokenRow:
    logprobs = choice.logprobs
    if logprobs is None or logprobs.token_logprobs is None:
        raise NoPromptLogprobs("the reply has no log-probabilities")
    if len(logprobs.token_logprobs) < len(ids):
        raise NoPromptLogprobs("the log-probabilities do not cover the prompt's tokens")
    values: list[float | None] = [
        None if v is None else float(v) for v in logprobs.token_logprobs[: len(ids)]
    ]
    tops = logprobs.top_logprobs or []
    greedy: list[bool | None] = []
    for i, value in enumerate(values):
        top = tops[i] if i < len(tops) else None
        greedy.append(None if not top or value is None else value >= max(top.values()) - 1e-9)
    return TokenRow(values, greedy)


async def probe_tokens(api: Any, text_echo: Echo, probe: str) -> None:
    """Learn whether token-id prompts work here (`endpoint.token_prompts`) and whether the
    server offers `prompt_logprobs`; a named --tokenizer that is not the server's is refused,
    an assumed one (the model name) just leaves prompts as text (`endpoint.tokenizer_note`)."""
    import openai

    from w2c_tui.runs.api.retry import Attempts

    endpoint, options = api.endpoint, api.options
    if api.tokenizer is None:
        endpoint.token_prompts = False
        return
    [ids] = encode(api.tokenizer, [probe])
    pair = [ids, ids[: max(2, len(ids) // 2)]]
    refused = (openai.BadRequestError, openai.UnprocessableEntityError, BatchMismatch)
    try:
        reply = await api.token_completion(Attempts(), pair, prompt_logprobs=False)
        rows = read_rows(reply, pair, prompt_logprobs=False)
    except (*refused, NoPromptLogprobs) as exc:
        endpoint.token_prompts = False
        endpoint.tokenizer_note = f"the server does not take token-id prompts ({exc})"
        return
    theirs = [v for v in text_echo.logprobs if v is not None]
    ours = [v for v in rows[0].values if v is not None]
    if len(theirs) != len(ours) or any(
        abs(a - b) > SAME_LOGPROB for a, b in zip(theirs, ours, strict=True)
    ):
        why = (
            f"the tokenizer {options.tokenizer or api.config.model!r} splits the probe into "
            f"{len(ids)} tokens or scores it differently than the server "
            f"({text_echo.n_prompt} tokens): it is not the served model's tokenizer"
        )
        if options.tokenizer:
            raise RunStartError(f"{why}; give the right --tokenizer")
        endpoint.token_prompts = False
        endpoint.tokenizer_note = why
        return
    endpoint.token_prompts = True
    try:
        reply = await api.token_completion(Attempts(), pair, prompt_logprobs=True)
        read_rows(reply, pair, prompt_logprobs=True)
    except (*refused, NoPromptLogprobs):
        endpoint.prompt_logprobs = False
    else:
        endpoint.prompt_logprobs = True
