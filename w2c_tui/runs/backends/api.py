"""The `openai` backend: any OpenAI-compatible server (runs/api/). The API key stays in the
environment: a run stores the name of the variable that holds it, never the key."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from w2c_tui.domain.run_options import Backend, BackendOptions, OpenAIOptions
from w2c_tui.domain.runs import RunConfig, RunStartError
from w2c_tui.runs.api.executor import OpenAIExecutor
from w2c_tui.runs.executor import Executor
from w2c_tui.runs.local.loading import ModelCache

ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEY_PREFIXES = ("sk-", "sk_", "hf_", "gsk_", "ghp_", "xai-", "AIza", "pk-", "rk-")


def check_key_env(name: str | None) -> None:
    """RunStartError unless `name` is an environment variable's name: a value that looks like
    an API key itself is refused without being repeated (it must not reach the database)."""
    if name is None:
        return
    looks_like_key = name.startswith(KEY_PREFIXES) or (
        len(name) >= 32 and any(c.islower() for c in name) and any(c.isdigit() for c in name)
    )
    if not ENV_NAME.fullmatch(name) or looks_like_key:
        raise RunStartError(
            "--api-key-env takes the NAME of the environment variable that holds the key "
            "(e.g. OPENAI_API_KEY: letters, digits and _), not the key itself; what was given "
            "looks like a key and was neither stored nor shown"
        )


class OpenAIBackend:
    """Runs every method against an OpenAI-compatible server, concurrently."""

    name: Backend = Backend.OPENAI
    options: type[BackendOptions] = OpenAIOptions
    requires: tuple[str, ...] = ("openai",)
    install: str = "pip install 'openai>=1.40' (or reinstall w2c-tui)"

    def check_secrets(self, config: RunConfig) -> None:
        """The key's variable is named, not the key given."""
        check_key_env(config.options_as(OpenAIOptions).api_key_env)

    def validate(self, config: RunConfig) -> None:
        """A key variable's name (not a key), a base URL without a password, some concurrency."""
        self.check_secrets(config)
        options = config.options_as(OpenAIOptions)
        if not options.base_url:
            raise RunStartError(
                "the openai backend needs --base-url (e.g. "
                "https://api.openai.com/v1 or http://127.0.0.1:8000/v1)"
            )
        if urlsplit(options.base_url).password:
            raise RunStartError(
                "the base URL holds a password, which would be stored with the run: give the "
                "URL without it and the credential through --api-key-env"
            )
        if options.concurrency < 1:
            raise RunStartError("--repeats and --concurrency must be at least 1")

    def secret_envs(self, config: RunConfig) -> tuple[str, ...]:
        """The key's variable, when one is named."""
        name = config.options_as(OpenAIOptions).api_key_env
        return (name,) if name else ()

    def make_executor(self, config: RunConfig, models: ModelCache | None) -> Executor:
        """An OpenAIExecutor (openai is imported when it checks)."""
        return OpenAIExecutor(config)


BACKEND = OpenAIBackend()
