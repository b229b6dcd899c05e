"""The AsyncOpenAI client; the key comes only from the environment variable the options name.

The key lives in the client and in a `Redactor` (to scrub it from any error text a server echoes);
it is never logged, stored, put in results, `describe()` or an exception message.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from w2c_tui.domain.run_options import OpenAIOptions
from w2c_tui.domain.runs import RunStartError

if TYPE_CHECKING:
    from openai import AsyncOpenAI

NO_KEY = "EMPTY"
"""What local servers (vLLM, llama.cpp) get when the config names no key variable."""


class Redactor:
    """Replaces the API key in text; its repr never shows the key."""

    def __init__(self, secret: str | None) -> None:
        self._secret = secret if secret and secret != NO_KEY else None

    def __call__(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret else text

    def __repr__(self) -> str:
        return "Redactor(***)"


def api_key(options: OpenAIOptions) -> str:
    """The key from `os.environ[options.api_key_env]`, or "EMPTY" when no variable is named."""
    if not options.api_key_env:
        return NO_KEY
    key = os.environ.get(options.api_key_env, "")
    if not key.strip():
        raise RunStartError(
            f"set the environment variable {options.api_key_env} to your API key "
            f"(the run config names {options.api_key_env} as api_key_env), or clear api_key_env "
            "for a server that needs no key"
        )
    return key.strip()


def check_base_url(options: OpenAIOptions) -> None:
    """RunStartError unless the base URL is an http(s) URL with a host."""
    if options.base_url is None:
        return
    parts = urlsplit(options.base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RunStartError(
            f"base URL {public_url(options.base_url)!r} is not an http(s) URL with a host; "
            "give e.g. http://127.0.0.1:8000/v1"
        )


def public_url(url: str | None) -> str:
    """The URL without user info, query or fragment (they may carry credentials)."""
    if url is None:
        return "https://api.openai.com/v1 (openai default)"
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def import_openai() -> ModuleType:
    """The openai package, or RunStartError saying how to install it."""
    try:
        import openai
    except ImportError:
        raise RunStartError(
            "the openai backend needs the openai package, a dependency of w2c-tui: "
            "pip install 'openai>=1.40' (or reinstall w2c-tui)"
        ) from None
    return openai


def make_client(options: OpenAIOptions, key: str) -> AsyncOpenAI:
    """A client with the library's own retries off (we retry, and count, ourselves)."""
    import_openai()
    from openai import AsyncOpenAI

    return AsyncOpenAI(
        base_url=options.base_url, api_key=key, max_retries=0, timeout=options.timeout_s
    )
