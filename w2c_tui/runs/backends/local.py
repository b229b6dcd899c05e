"""The `transformers` backend: a local model (runs/local/)."""

from __future__ import annotations

from w2c_tui.domain.run_options import Backend, BackendOptions, TransformersOptions
from w2c_tui.domain.runs import RunConfig, RunStartError
from w2c_tui.runs.executor import Executor
from w2c_tui.runs.local.executor import TransformersExecutor
from w2c_tui.runs.local.loading import ModelCache


class TransformersBackend:
    """Runs every method on a local transformers model."""

    name: Backend = Backend.TRANSFORMERS
    options: type[BackendOptions] = TransformersOptions
    requires: tuple[str, ...] = ("torch", "transformers")
    install: str = "pip install 'w2c-tui[local]'"

    def check_secrets(self, config: RunConfig) -> None:
        """Nothing: a local model takes no key."""

    def validate(self, config: RunConfig) -> None:
        """The batch size (the model and template are checked by the worker, which loads)."""
        options = config.options_as(TransformersOptions)
        if options.batch_size < 1:
            raise RunStartError(f"--batch-size must be at least 1, got {options.batch_size}")

    def secret_envs(self, config: RunConfig) -> tuple[str, ...]:
        """None: a local model takes no key."""
        return ()

    def make_executor(self, config: RunConfig, models: ModelCache | None) -> Executor:
        """A TransformersExecutor (torch loads when it checks)."""
        return TransformersExecutor(config, models)


BACKEND = TransformersBackend()
