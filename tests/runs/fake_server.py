"""A small OpenAI-compatible HTTP server on 127.0.0.1 for the openai backend's tests and bench.

Stdlib only (`http.server` in a thread). It speaks /v1/models, /v1/chat/completions and
/v1/completions (echo + logprobs with deterministic per-token log-probs and `text_offset`), counts
concurrent requests, records every request (path, JSON body, Authorization header), and injects
faults. Behaviour is scripted by markers inside the request text:

- `[[reply:TEXT]]`: the chat reply (first turn); `[[repair:TEXT]]`: the reply once the request
  holds an assistant turn (the judge's repair turn). Without markers the reply is `default_reply`.
- `[[toolcall]]`: reply with a native tool call of the first tool in `tools`, arguments
  `{"city": "Paris"}`.
- `[[fault:KIND:N]]`: the first N requests carrying this marker fail with KIND: `429` (with
  Retry-After: `retry_after`), `429date` (Retry-After as an HTTP date), `500`, `slow` (answers after
  `slow_s`), `badjson` (a 200 whose body is not JSON), `400`, `400echo` (a 400 whose message quotes
  the Authorization header, as careless gateways do). N may be `*` (always).

Tokeniser for /v1/completions: runs of word characters or single other characters, each with the
whitespace before it (`\\s*\\w+|\\s*[^\\w\\s]|\\s+`); `token_logprob(token)` gives its log-prob.
`prompt` is a string or a list of strings (one choice per prompt with its `index`, usage summed
over the prompts, as vLLM answers); `list_prompts=False` refuses lists with a 400, and
`batch_quirk` answers them in one of several odd ways.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any

from fake_answers import (
    ChatOptions,
    ChoiceOptions,
    chat_answer,
    chat_refusal,
    completion_choice,
    fault_answer,
)
from fake_wire import FAULT, Reply, _error, _handler, _json, _Server


@dataclass
class Seen:
    """One request as the server received it."""

    path: str
    body: dict[str, Any] | None
    authorization: str | None
    started: float


@dataclass
class FakeOpenAI:
    """The server; use as a context manager (it stops by itself on exit)."""

    models: tuple[str, ...] = ("fake-model",)
    api_key: str | None = None
    """When set, requests without `Bearer <api_key>` get 401."""
    latency_s: float = 0.0
    slow_s: float = 1.0
    retry_after: str = "0.05"
    default_reply: str = "OK"
    echo: bool = True
    """False: echo is ignored (logprobs of the generated token only, as without echo)."""
    logprobs: bool = True
    """False: echo and logprobs are both ignored (as `transformers serve` does)."""
    zero_max_tokens: bool = True
    """False: max_tokens=0 is refused with a 400."""
    structured: bool = True
    """False: response_format is refused with a 400."""
    extra_params: bool = True
    """False: unknown parameters (add_special_tokens) are refused with a 400."""
    models_endpoint: bool = True
    broken_paths: set[str] = field(default_factory=set)
    """Paths whose every answer is a 200 with a body that is not JSON."""
    reasoning_model: bool = False
    """True: max_tokens is refused in favour of max_completion_tokens (as OpenAI's o-series)."""
    bos: str | None = None
    """A BOS token's text put in front of echoed prompts when add_special_tokens is true."""
    display: Callable[[str], str] | None = None
    """How token strings are shown (e.g. byte-level 'Ġ' for spaces); offsets follow it."""
    list_prompts: bool = True
    """False: a list `prompt` on /v1/completions is refused with a 400 (one string only)."""
    batch_quirk: str | None = None
    """How a list `prompt` is answered: None (one choice per prompt, `index` set), "reversed"
    (the same choices in reverse order), "short" (the last choice left out), "unindexed" (every
    `index` 0), "usage" (usage counts the first prompt's tokens only)."""
    silent_stop: bool = False
    """True: prompts ending in "." generate no token (an EOS the reply leaves out) even when
    max_tokens ≥ 1, and usage counts none for them."""
    n_choices: str = "yes"
    """How `n` > 1 on chat is answered: "yes" (n choices, content + " #index"), "refuse" (a 400
    naming n, as servers without it do), "one" (one choice only, as some servers ignore n)."""
    outage: bool = False
    """True: every model request is answered 503 (a server down for a while; set it back)."""
    seen: list[Seen] = field(default_factory=list)
    keep_bodies: bool = True
    """False: `seen` records requests without their bodies (long runs stay small in memory)."""
    max_in_flight: int = 0
    _in_flight: int = 0
    _faults: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL to give the client."""
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._server = _Server(("127.0.0.1", 0), _handler(self.handle))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def requests(self, path: str) -> list[Seen]:
        """The requests received on `path` (e.g. "/v1/chat/completions")."""
        with self._lock:
            return [s for s in self.seen if s.path == path]

    # -- request handling (called from the server's threads) --

    def handle(
        self, method: str, path: str, body: dict[str, Any] | None, auth: str | None, raw: str
    ) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            kept = body if self.keep_bodies else None
            self.seen.append(Seen(path, kept, auth, time.monotonic()))
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            if self.latency_s:
                time.sleep(self.latency_s)
            return self._answer(method, path, body, auth, raw)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _answer(
        self, method: str, path: str, body: dict[str, Any] | None, auth: str | None, raw: str
    ) -> tuple[int, dict[str, str], bytes]:
        if self.api_key is not None and auth != f"Bearer {self.api_key}":
            return _error(401, f"Incorrect API key provided: {auth}", "invalid_api_key")
        if path in self.broken_paths:
            return 200, {"Content-Type": "application/json"}, b'{"id": "x", "choices": [ {'
        if self.outage and method == "POST":
            return _error(503, "Service Unavailable: the server is down for maintenance")
        fault = self._fault(raw)
        if fault is not None:
            answer = fault_answer(fault, auth, self.retry_after, self.slow_s)
            if answer is not None:
                return answer
        if method == "GET" and path == "/v1/models":
            if not self.models_endpoint:
                return _error(404, "Not Found")
            data = [
                {"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models
            ]
            return _json(200, {"object": "list", "data": data})
        if method != "POST" or body is None:
            return _error(404, "Not Found")
        if body.get("model") not in self.models:
            return _error(404, f"The model `{body.get('model')}` does not exist.")
        if path == "/v1/chat/completions":
            return self._chat(body)
        if path == "/v1/completions":
            return self._completions(body)
        return _error(404, "Not Found")

    def _fault(self, raw: str) -> str | None:
        match = FAULT.search(raw)
        if match is None:
            return None
        marker, kind, count = match.group(0), match.group(1), match.group(2)
        with self._lock:
            used = self._faults.get(marker, 0)
            if count != "*" and used >= int(count):
                return None
            self._faults[marker] = used + 1
        return kind

    def _chat_options(self) -> ChatOptions:
        return ChatOptions(
            self.structured, self.reasoning_model, self.n_choices, self.default_reply
        )

    def _chat_refusal(self, body: dict[str, Any]) -> Reply | None:
        """The 400 a chat request gets for a parameter this server is set to refuse, or None."""
        return chat_refusal(body, self._chat_options())

    def _chat(self, body: dict[str, Any]) -> Reply:
        return chat_answer(body, self._chat_options())

    def _completions(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        if "add_special_tokens" in body and not self.extra_params:
            return _error(400, "Unrecognized request argument supplied: add_special_tokens")
        max_tokens = int(body.get("max_tokens", 16))
        if max_tokens == 0 and not self.zero_max_tokens:
            return _error(400, "max_tokens must be at least 1, got 0.", param="max_tokens")
        prompt = body.get("prompt", "")
        if isinstance(prompt, list) and any(not isinstance(p, str) for p in prompt):
            return _error(400, "prompt must be a string or a list of strings", param="prompt")
        if isinstance(prompt, list):
            if not self.list_prompts or not prompt:
                return _error(400, "prompt must be a string", param="prompt")
            prompts = [str(p) for p in prompt]
        else:
            prompts = [str(prompt)]
        options = ChoiceOptions(self.bos, self.silent_stop, self.echo, self.logprobs, self.display)
        choices: list[dict[str, Any]] = []
        counts: list[tuple[int, int]] = []
        for index, text in enumerate(prompts):
            choice, n_prompt, n_generated = completion_choice(body, text, max_tokens, options)
            choices.append({"index": index, **choice})
            counts.append((n_prompt, n_generated))
        if isinstance(prompt, list):
            if self.batch_quirk == "reversed":
                choices.reverse()
            elif self.batch_quirk == "short":
                choices.pop()
            elif self.batch_quirk == "unindexed":
                choices = [{**choice, "index": 0} for choice in choices]
            elif self.batch_quirk == "usage":
                counts = counts[:1]
        n_prompt, n_generated = sum(c[0] for c in counts), sum(c[1] for c in counts)
        return _json(
            200,
            {
                "id": "cmpl-fake",
                "object": "text_completion",
                "created": 0,
                "model": body["model"],
                "choices": choices,
                "usage": {
                    "prompt_tokens": n_prompt,
                    "completion_tokens": n_generated,
                    "total_tokens": n_prompt + n_generated,
                },
            },
        )


def serve(**options: Any) -> Iterator[FakeOpenAI]:
    """A started server (for `yield from` in fixtures)."""
    with FakeOpenAI(**options) as server:
        yield server
