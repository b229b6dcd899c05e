"""An OpenAI-compatible server on 127.0.0.1 that answers with a real (tiny) transformers model.

`ModelOpenAI` is `FakeOpenAI` (fake_server.py) with the two model endpoints replaced, so its
fault markers (`[[fault:429:N]]`, `[[fault:500:N]]`, `[[fault:slow:N]]`, `[[fault:badjson:N]]`,
…), request recording, concurrency counting, API key and refusal flags (`echo`, `logprobs`,
`zero_max_tokens`, `structured`, `extra_params`, `reasoning_model`) all keep working.

/v1/completions, as vLLM answers it: `prompt` is a string, a list of strings, a list of token
ids or a list of lists of token ids (one choice per prompt, `index` its position, usage summed;
lists refused with a 400 where FakeOpenAI's `list_prompts` is False, token ids where
`token_prompts` is False). Token-id prompts are read as given (the echoed text is their
decoding, each token's piece its own decoding). `prompt_logprobs: k` (vLLM's extra parameter;
refused where `prompt_logprobs_param` is False) adds `prompt_logprobs` to each choice: None for
the first position, then a dict keyed by token id (as a string) holding the prompt's own token
and the top k, each {"logprob", "rank", "decoded_token"}. How a prompt is read and continued,
and what each token's log-probs and pieces are: model_reading.py.

/v1/chat/completions: `n` > 1 is refused with a 400 (one reply per request); the tokenizer's chat
template (with the body's `tools`) and
add_generation_prompt, then up to `max_completion_tokens` / `max_tokens` (default 16) new tokens,
greedy at temperature 0, stopping at `<|im_end|>` or EOS; the reply is the model's own text
(special tokens skipped). `response_format` is accepted but does not constrain the model (every
such request is counted in `unconstrained`), or refused with a 400 when `structured` is False.
Scripted replies (`[[reply:…]]`, `[[repair:…]]`, `[[toolcall]]` in the request) are answered as
FakeOpenAI answers them, without the model. Every model reply is recorded in `replies`.

Model calls are serialised by one lock (`model_reading.MODEL_LOCK`: torch modules are not
thread-safe for this use); `threads` (default 1) sets torch's intra-op threads while the server
runs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fake_server import FakeOpenAI
from fake_wire import REPAIR, REPLY
from fake_wire import _error as _error
from fake_wire import _json as _json
from model_pieces import (
    BadRequest,
    Loaded,
    _completion_choice,
    _is_ids,
    _messages,
    _prompts,
    load,
)
from model_reading import read_and_continue

Answer = tuple[int, dict[str, str], bytes]

DEFAULT_CHAT_TOKENS = 16
"""New tokens of a chat reply when the request names no limit (a random model rarely stops)."""


@dataclass(frozen=True)
class ChatReply:
    """One chat reply the model produced, with the messages it answered."""

    messages: list[dict[str, Any]]
    text: str
    n_new: int
    stopped: bool
    response_format: bool
    """The request asked for structured output (which the model did not follow)."""


@dataclass
class ModelOpenAI(FakeOpenAI):
    """The server (a context manager); `model_dir` is a saved causal LM with a fast tokenizer."""

    model_dir: Path | None = None
    models: tuple[str, ...] = ("tiny-model",)
    seed: int = 0
    """Sampling seed (temperature > 0) when the request carries no `seed`: seed + request no."""
    threads: int | None = 1
    """torch intra-op threads while the server runs (None: leave them)."""
    token_prompts: bool = True
    """False: prompts given as token ids are refused with a 400 (text only)."""
    prompt_logprobs_param: bool = True
    """False: the `prompt_logprobs` parameter is refused with a 400."""
    replies: list[ChatReply] = field(default_factory=list)
    unconstrained: int = 0
    """Chat requests whose response_format was accepted but not enforced."""
    _loaded: Loaded | None = None
    _samples: int = 0
    _threads_before: int | None = None

    def __enter__(self) -> ModelOpenAI:
        import torch

        if self.model_dir is None:
            raise ValueError("ModelOpenAI needs model_dir")
        self._loaded = load(Path(self.model_dir))
        if self.threads is not None:
            self._threads_before = torch.get_num_threads()
            torch.set_num_threads(self.threads)
        super().__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        import torch

        try:
            super().__exit__(*exc)
            self._drain()
        finally:
            if self._threads_before is not None:
                torch.set_num_threads(self._threads_before)
                self._threads_before = None

    def _drain(self, timeout_s: float = 30.0) -> None:
        """Wait for the requests still being answered (a `slow` fault's thread sleeps, then runs
        the model after its client gave up): no model call outlives the server."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self._lock:
                if self._in_flight == 0:
                    return
            time.sleep(0.01)

    @property
    def loaded(self) -> Loaded:
        """The served model (after `__enter__`)."""
        assert self._loaded is not None
        return self._loaded

    def replies_for(self, needle: str) -> dict[int, list[str]]:
        """The model's chat replies to conversations that contain `needle`, by the number of
        messages answered (a judge: its first turn, then its repair turn)."""
        found: dict[int, list[str]] = {}
        with self._lock:
            for reply in self.replies:
                if any(needle in m["content"] for m in reply.messages):
                    found.setdefault(len(reply.messages), []).append(reply.text)
        return dict(sorted(found.items()))

    # -- /v1/completions --

    def _completions(self, body: dict[str, Any]) -> Answer:
        if "add_special_tokens" in body and not self.extra_params:
            return _error(400, "Unrecognized request argument supplied: add_special_tokens")
        raw_prompt = body.get("prompt", "")
        if _is_ids(raw_prompt) and not self.token_prompts:
            return _error(400, "prompt must be a string or a list of strings", param="prompt")
        if isinstance(raw_prompt, list) and not _is_ids(raw_prompt) and not self.list_prompts:
            return _error(400, "prompt must be a string", param="prompt")
        wanted_prompt = body.get("prompt_logprobs")
        if wanted_prompt is not None and not self.prompt_logprobs_param:
            return _error(400, "Unrecognized request argument supplied: prompt_logprobs")
        try:
            max_tokens = int(body.get("max_tokens", 16))
            prompts = _prompts(raw_prompt)
        except (TypeError, ValueError, BadRequest) as exc:
            return _error(400, str(exc), param="prompt")
        if max_tokens < 0:
            return _error(400, f"max_tokens must be at least 0, got {max_tokens}.")
        if max_tokens == 0 and not self.zero_max_tokens:
            return _error(400, "max_tokens must be at least 1, got 0.", param="max_tokens")
        echoed = bool(body.get("echo")) and self.echo and self.logprobs
        wanted = body.get("logprobs")
        with_logprobs = wanted is not None and self.logprobs
        top_n = max(1, int(wanted or 0))
        add_special = bool(body.get("add_special_tokens", True))
        temperature = float(body.get("temperature", 1.0))
        choices: list[dict[str, Any]] = []
        n_prompt = n_new = 0
        for index, prompt in enumerate(prompts):
            ids = prompt if isinstance(prompt, list) else None
            text = self.loaded.tokenizer.decode(ids) if ids is not None else prompt
            try:
                scored = read_and_continue(
                    self.loaded,
                    text,
                    add_special,
                    max_tokens,
                    temperature,
                    lambda: self._sample_seed(body.get("seed")),
                    top_n,
                    stop_ids=self._eos_ids(),
                    need_prompt=(echoed and with_logprobs) or wanted_prompt is not None,
                    ids=ids,
                    ranked_top=int(wanted_prompt or 0),
                )
            except BadRequest as exc:
                return _error(400, str(exc))
            except Exception as exc:  # a server bug: answer it rather than drop the connection
                return _error(500, f"{type(exc).__name__}: {exc}")
            n_prompt += len(scored.prompt_ids)
            n_new += len(scored.new_ids)
            choice = _completion_choice(index, text, scored, echoed, with_logprobs)
            if wanted_prompt is not None:
                choice["prompt_logprobs"] = scored.prompt_ranked
            choices.append(choice)
        return _json(
            200,
            {
                "id": "cmpl-model",
                "object": "text_completion",
                "created": 0,
                "model": body["model"],
                "choices": choices,
                "usage": {
                    "prompt_tokens": n_prompt,
                    "completion_tokens": n_new,
                    "total_tokens": n_prompt + n_new,
                },
            },
        )

    def _eos_ids(self) -> frozenset[int]:
        eos = self.loaded.tokenizer.eos_token_id
        return frozenset() if eos is None else frozenset({eos})

    # -- /v1/chat/completions --

    def _chat(self, body: dict[str, Any]) -> Answer:
        refused = self._chat_refusal(body)
        if refused is not None:
            return refused
        try:
            messages = _messages(body.get("messages"))
        except BadRequest as exc:
            return _error(400, str(exc))
        text = "\n".join(m["content"] for m in messages)
        if REPLY.search(text) or REPAIR.search(text) or "[[toolcall]]" in text:
            return super()._chat(body)  # a scripted reply
        if int(body.get("n") or 1) > 1:
            return _error(400, "n > 1 is not supported by this server", param="n")
        limit = body.get("max_completion_tokens", body.get("max_tokens"))
        max_tokens = DEFAULT_CHAT_TOKENS if limit is None else int(limit)
        tok = self.loaded.tokenizer
        try:
            prompt = tok.apply_chat_template(
                messages,
                tools=body.get("tools") or None,
                add_generation_prompt=True,
                tokenize=False,
            )
            scored = read_and_continue(
                self.loaded,
                str(prompt),
                False,  # the template writes its own special tokens
                max_tokens,
                float(body.get("temperature", 1.0)),
                lambda: self._sample_seed(body.get("seed")),
                1,
                stop_ids=self.loaded.stop_ids,
                need_prompt=False,
            )
        except BadRequest as exc:
            return _error(400, str(exc))
        except Exception as exc:  # a server bug (or a template error): answer it
            return _error(500, f"{type(exc).__name__}: {exc}")
        new = scored.new_ids[:-1] if scored.stopped else scored.new_ids
        reply = str(tok.decode(new, skip_special_tokens=True))
        asked_format = "response_format" in body
        with self._lock:
            self.replies.append(ChatReply(messages, reply, len(new), scored.stopped, asked_format))
            self.unconstrained += int(asked_format)
        return _json(
            200,
            {
                "id": "chatcmpl-model",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply},
                        "finish_reason": "stop" if scored.stopped else "length",
                    }
                ],
                "usage": {
                    "prompt_tokens": len(scored.prompt_ids),
                    "completion_tokens": len(scored.new_ids),
                    "total_tokens": len(scored.prompt_ids) + len(scored.new_ids),
                },
            },
        )

    def _sample_seed(self, seed: Any) -> int:
        if seed is not None:
            return int(seed)
        with self._lock:
            self._samples += 1
            return self.seed + self._samples


def serve_model(**options: Any) -> Iterator[ModelOpenAI]:
    """A started server (for `yield from` in fixtures)."""
    with ModelOpenAI(**options) as server:
        yield server
