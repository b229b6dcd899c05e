"""Our retry loop: transient failures wait (full-jitter backoff or Retry-After) and try again.

Retried: 429, 5xx, 408, timeouts, connection errors and unreadable (malformed) response bodies.
Every other error (400, 401, 403, 404, 422…) goes straight back to the caller: for a task that is
a task error, and the run goes on. Each retry is counted in `Attempts`, with the last error text.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TypeVar

T = TypeVar("T")
log = logging.getLogger("w2c.api")


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff `uniform(0, min(cap, base·2^(n−1)))` before retry n; Retry-After wins if sent."""

    base_s: float = 0.5
    cap_s: float = 30.0
    max_retry_after_s: float = 120.0
    """A longer Retry-After is cut to this (a misconfigured server must not park a run)."""

    def delay(self, retry: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number `retry` (1-based)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after_s)
        return rng.uniform(0.0, min(self.cap_s, self.base_s * 2 ** (retry - 1)))


DEFAULT_RETRY_POLICY = RetryPolicy()


@dataclass
class Attempts:
    """The retries of one task (or one check), and the text of the last error retried."""

    retries: int = 0
    last_error: str | None = None


def retry_after_seconds(headers: dict[str, str], now: datetime | None = None) -> float | None:
    """Seconds from `retry-after-ms`, or `retry-after` as seconds or an HTTP date; else None."""
    lowered = {k.lower(): v for k, v in headers.items()}
    if "retry-after-ms" in lowered:
        try:
            value = float(lowered["retry-after-ms"]) / 1000
            if math.isfinite(value):
                return max(value, 0.0)
        except ValueError:
            pass
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    try:
        value = float(raw)
        return max(value, 0.0) if math.isfinite(value) else None
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)


def error_text(exc: BaseException) -> str:
    """The exception's message plus the response body when the message leaves it out (a
    FastAPI `{"detail": …}` body, for one, does not reach openai's message)."""
    message = str(exc)
    body = getattr(exc, "body", None)
    if body is not None:
        shown = json.dumps(body, ensure_ascii=False) if not isinstance(body, str) else body
        if shown and shown not in message and str(body) not in message:
            message = f"{message} - {shown}"
    return " ".join(message.split())


def describe_error(exc: BaseException) -> str:
    """A one-line description: class, HTTP status when there is one, message (≤ 300 chars)."""
    status = getattr(exc, "status_code", None)
    head = type(exc).__name__ + (f" (HTTP {status})" if isinstance(status, int) else "")
    message = error_text(exc)
    return f"{head}: {message[:300]}" if message else head


def transient(exc: BaseException) -> tuple[bool, float | None]:
    """(worth retrying, Retry-After seconds) for an exception raised by an openai call."""
    import openai

    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status == 429 or status == 408 or status >= 500:
            return True, retry_after_seconds(dict(exc.response.headers))
        return False, None
    if isinstance(exc, openai.APIConnectionError | openai.APIResponseValidationError):
        return True, None
    # A 200 whose body is not JSON surfaces as a decode error from the response parser.
    return isinstance(exc, ValueError) and type(exc).__name__ == "JSONDecodeError", None


async def with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    max_retries: int,
    attempts: Attempts,
    redact: Callable[[str], str],
    rng: random.Random,
    retry_connection: bool = True,
) -> T:
    """`await call()`, retrying transient failures up to `max_retries` times."""
    import openai

    while True:
        try:
            return await call()
        except Exception as exc:
            retryable, retry_after = transient(exc)
            if isinstance(exc, openai.APIConnectionError) and not retry_connection:
                retryable = False
            if not retryable or attempts.retries >= max_retries:
                raise
            attempts.retries += 1
            attempts.last_error = redact(describe_error(exc))
            wait = policy.delay(attempts.retries, retry_after, rng)
            log.warning(
                "retry %d of %d in %.2f s%s after %s",
                attempts.retries,
                max_retries,
                wait,
                " (Retry-After)" if retry_after is not None else "",
                attempts.last_error,
            )
            await asyncio.sleep(wait)
