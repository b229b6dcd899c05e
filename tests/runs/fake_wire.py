"""The fake OpenAI server's wire: its tokeniser and log-probs, the markers it reads, how an
answer is framed (JSON, OpenAI's error shape) and the stdlib HTTP plumbing."""

from __future__ import annotations

import hashlib
import json
import re
import socket
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, dict[str, str], bytes]
"""Status, headers, body."""

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


Handle = Callable[[str, str, dict[str, Any] | None, str | None, str], Reply]
"""FakeOpenAI.handle: (method, path, JSON body, Authorization, raw body) → the answer."""


def _handler(handle: Handle) -> type[BaseHTTPRequestHandler]:
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
            status, headers, payload = handle(
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
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
