"""What a run backend is: a name, its options model, what it needs installed, the checks a
configuration must pass before a run is stored, and the executor it builds."""

from __future__ import annotations

import importlib.util
from typing import Protocol

from w2c_tui.domain.run_options import Backend, BackendOptions
from w2c_tui.domain.runs import RunConfig, RunStartError
from w2c_tui.runs.executor import Executor
from w2c_tui.runs.local.loading import ModelCache


class RunBackend(Protocol):
    """One backend of the registry (`runs/backends/__init__.py`)."""

    name: Backend
    options: type[BackendOptions]
    """Its options model: what `RunConfig.options` holds for it."""
    requires: tuple[str, ...]
    """The Python packages its executor imports when a run starts."""
    install: str
    """How to install them."""

    def check_secrets(self, config: RunConfig) -> None:
        """RunStartError where a secret stands in the options instead of its variable's name
        (checked before any request, a spot check's too)."""

    def validate(self, config: RunConfig) -> None:
        """RunStartError for what the configuration alone says is wrong (no network, no model
        loaded; `check_secrets` included): checked before a run is stored."""

    def secret_envs(self, config: RunConfig) -> tuple[str, ...]:
        """The environment variables whose values are secrets the run uses (scrubbed from its
        log); their names may be stored, their values never."""

    def make_executor(self, config: RunConfig, models: ModelCache | None) -> Executor:
        """The executor of `config`; `models` shares loaded local models between executors."""


def check_installed(backend: RunBackend) -> None:
    """RunStartError naming what the backend needs and how to install it, if anything is
    missing."""
    missing = [name for name in backend.requires if importlib.util.find_spec(name) is None]
    if missing:
        raise RunStartError(
            f"the {backend.name.value} backend needs {', '.join(missing)}: {backend.install}"
        )
