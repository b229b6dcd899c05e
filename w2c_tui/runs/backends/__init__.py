"""The registry of run backends: a backend is a module here (see `base.RunBackend`) plus its
line in BACKENDS, with its name and options model in domain/run_options.py."""

from __future__ import annotations

from w2c_tui.domain.run_options import Backend
from w2c_tui.domain.runs import RunConfig
from w2c_tui.runs.backends import api, local
from w2c_tui.runs.backends.base import RunBackend, check_installed
from w2c_tui.runs.executor import Executor
from w2c_tui.runs.local.loading import ModelCache

BACKENDS: dict[Backend, RunBackend] = {
    Backend.TRANSFORMERS: local.BACKEND,
    Backend.OPENAI: api.BACKEND,
}


def backend_for(config: RunConfig) -> RunBackend:
    """The backend that runs `config`."""
    return BACKENDS[config.backend]


def make_executor(config: RunConfig, models: ModelCache | None = None) -> Executor:
    """The executor for `config` (RunStartError when its backend's packages are missing);
    `models` shares loaded local models between executors."""
    backend = backend_for(config)
    check_installed(backend)
    return backend.make_executor(config, models)
