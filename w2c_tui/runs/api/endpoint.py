"""What an OpenAI-compatible server was found to accept, and how a refusal of a parameter reads.

`openai` is imported where a refusal is read, not at the top: `w2c --help` and the TUI start
without it (docs/STYLE.md, habit 13)."""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.runs.api.retry import error_text


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
    batch_prompts: bool | None = None
    """The server echoes the list form of `prompt` in one /completions request, one choice per
    prompt (None: not tried yet; False: it refused, or answered in a way that cannot be matched
    to the prompts, so texts go one request each)."""
    echo_context: bool = False
    """An MCQ split needed the context's own token count (offsets did not match the text): from
    then on batched requests carry the context along with the four choices."""
    token_prompts: bool | None = None
    """The server takes prompts as token ids (a list of lists of ints, as vLLM does) and our
    tokenizer tokenises as it does: MCQ contexts and continuations go as ids, split exactly."""
    prompt_logprobs: bool | None = None
    """The server returns `prompt_logprobs` (vLLM's extra parameter: each prompt token's
    log-prob and rank by token id); preferred to echo for token-id prompts."""
    tokenizer_note: str | None = None
    """Why prompts go as text (no tokenizer, the server refused ids, a tokenizer mismatch)."""
    seed: bool = True
    """The server takes `seed` (False once it refused it: later requests go without)."""
    n_choices: bool | None = None
    """The server answers `n` > 1 with that many choices (None: not tried yet)."""


def refuses(exc: BaseException, *words: str) -> bool:
    """A 400/422 whose message names one of `words` (the server refused that parameter)."""
    import openai

    if not isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError):
        return False
    text = error_text(exc).lower()
    return any(word in text for word in words)
