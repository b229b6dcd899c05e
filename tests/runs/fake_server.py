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

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Backend, Method, RunConfig, Task, TaskResult
from w2c_tui.runs.api.retry import RetryPolicy

TOKEN = re.compile(r"\s*\w+|\s*[^\w\s]|\s+")
FAULT = re.compile(r"\[\[fault:([a-z0-9]+):(\d+|\*)\]\]")
REPLY = re.compile(r"\[\[reply:(.*?)\]\]", re.DOTALL)
REPAIR = re.compile(r"\[\[repair:(.*?)\]\]", re.DOTALL)
GENERATED = " the"
"""The one token generated when max_tokens is 1."""


def tokenize(text: str) -> list[str]:
    """The fake tokeniser (concatenating the tokens gives the text back)."""
    return TOKEN.findall(text)


def token_logprob(token: str) -> float:
    """Deterministic log-prob in [-3, -0.5): a hash of the token text."""
    digest = int(hashlib.sha256(token.encode("utf-8")).hexdigest()[:8], 16)
    return -0.5 - 2.5 * (digest % 10_000) / 10_000


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
        self._server = _Server(("127.0.0.1", 0), _handler(self))
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
            answer = self._faulty(fault, path, body, auth, raw)
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

    def _faulty(
        self, kind: str, path: str, body: dict[str, Any] | None, auth: str | None, raw: str
    ) -> tuple[int, dict[str, str], bytes] | None:
        if kind == "429":
            return _error(429, "Rate limit reached", headers={"Retry-After": self.retry_after})
        if kind == "429date":
            when = formatdate(time.time() + 2, usegmt=True)
            return _error(429, "Rate limit reached", headers={"Retry-After": when})
        if kind == "500":
            return _error(500, "Internal server error")
        if kind == "slow":
            time.sleep(self.slow_s)
            return None
        if kind == "badjson":
            return 200, {"Content-Type": "application/json"}, b'{"id": "x", "choices": [ {'
        if kind == "400":
            return _error(400, "Bad request: the prompt is too long")
        if kind == "400echo":
            return _error(400, f"Bad request from client with Authorization: {auth}")
        raise AssertionError(f"unknown fault {kind}")

    def _chat_refusal(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes] | None:
        """The 400 a chat request gets for a parameter this server is set to refuse, or None."""
        if "response_format" in body and not self.structured:
            return _error(
                400, "response_format of type json_schema is not supported", param="response_format"
            )
        if self.reasoning_model and "max_tokens" in body:
            return _error(
                400,
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead.",
                param="max_tokens",
            )
        return None

    def _chat(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        refused = self._chat_refusal(body)
        if refused is not None:
            return refused
        n = int(body.get("n") or 1)
        if n > 1 and self.n_choices == "refuse":
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
                message["content"] = self.default_reply
        choices = [{"index": 0, "message": message, "finish_reason": finish}]
        if n > 1 and self.n_choices == "yes" and message["content"] is not None:
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
        choices: list[dict[str, Any]] = []
        counts: list[tuple[int, int]] = []
        for index, text in enumerate(prompts):
            choice, n_prompt, n_generated = self._completion_choice(body, text, max_tokens)
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

    def _completion_choice(
        self, body: dict[str, Any], prompt: str, max_tokens: int
    ) -> tuple[dict[str, Any], int, int]:
        """One prompt's choice (without `index`), its prompt tokens and generated tokens."""
        tokens = tokenize(prompt)
        if self.bos is not None and body.get("add_special_tokens", True):
            tokens = [self.bos, *tokens]
        silent = self.silent_stop and prompt.endswith(".")
        generated = [GENERATED] if max_tokens >= 1 and not silent else []
        echoed = bool(body.get("echo")) and self.echo and self.logprobs
        shown = (tokens if echoed else []) + generated
        values: list[float | None] = []
        if echoed:
            values = [None] + [token_logprob(t) for t in tokens[1:]]
        values += [-0.5] * len(generated)
        strings = [self.display(t) if self.display else t for t in shown]
        offsets, at = [], 0
        for s in strings:
            offsets.append(at)
            at += len(s)
        logprobs = None
        if body.get("logprobs") is not None and self.logprobs:
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


def _json(
    status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    return (
        status,
        {"Content-Type": "application/json", **(headers or {})},
        json.dumps(payload).encode("utf-8"),
    )


def _error(
    status: int,
    message: str,
    code: str | None = None,
    *,
    param: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    error = {"message": message, "type": "invalid_request_error", "param": param, "code": code}
    return _json(status, {"error": error}, headers)


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # the default backlog (5) drops bursts of new connections
    daemon_threads = True


def _handler(server: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8") if length else ""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            status, headers, payload = server.handle(
                method, self.path, body, self.headers.get("Authorization"), raw
            )
            try:
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

    return Handler


def closed_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def serve(**options: Any) -> Iterator[FakeOpenAI]:
    """A started server (for `yield from` in fixtures)."""
    with FakeOpenAI(**options) as server:
        yield server


# -- helpers shared by the backend tests and the bench --

TOOL = json.dumps(
    {
        "name": "weather.get_current",
        "description": "Current weather in a city",
        "parameters": {
            "type": "dict",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "days": {"type": "integer"},
                "options": {"type": "dict", "properties": {"metric": {"type": "boolean"}}},
                "ratio": {"type": "float"},
                "extra": {"type": "any"},
            },
            "required": ["city"],
        },
    }
)
ANSWERS: tuple[tuple[str, str], ...] = (
    ("direct", "It is sunny and warm in Paris today."),
    ("tool_call", json.dumps({"name": "weather.get_current", "arguments": {"city": "Paris"}})),
    ("request_for_info", "Which city would you like the weather for?"),
    ("cannot_answer", "Sorry, I cannot look up the weather."),
)
FAST_RETRY = RetryPolicy(base_s=0.002, cap_s=0.01, max_retry_after_s=0.5)
"""Backoff shrunk for tests (the executor takes the policy as an argument)."""


def make_task(
    item_id: int,
    question: str,
    response: str | None = None,
    tools: tuple[str, ...] = (TOOL,),
    answers: tuple[tuple[str, str], ...] = ANSWERS,
) -> Task:
    """A task for item `item_id`."""
    return Task(
        item_id=item_id,
        uuid=f"item-{item_id}",
        question=question,
        tools=tools,
        answers=answers,
        gold=Label.TOOL_CALL,
        response_text=response,
    )


def make_config(url: str | None, method: Method, **options: Any) -> RunConfig:
    """An openai-backend config for the fake model at `url`."""
    values: dict[str, Any] = {"timeout_s": 5.0, "max_retries": 3, **options}
    return RunConfig.of(
        method=method,
        backend=Backend.OPENAI,
        model=values.pop("model", "fake-model"),
        dataset="fake",
        base_url=url,
        **values,
    )


def run_tasks(
    executor: Any, tasks: list[Task], should_stop: Callable[[], bool] = lambda: False
) -> list[TaskResult]:
    """Run and collect the emitted results."""
    results: list[TaskResult] = []
    executor.run(tasks, results.append, should_stop)
    return results
