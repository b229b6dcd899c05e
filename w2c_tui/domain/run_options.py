"""Run backends by name, and one frozen options model per backend.

`RunConfig` (domain/runs.py) holds what every run has plus its backend's options object. The
runs layer pairs each name with what builds and checks its executor (`runs/backends/`). A new
backend adds its name, its options model and its line in `OPTIONS` here, then its module and
registry line there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, Self


class Backend(StrEnum):
    """Where the model runs."""

    TRANSFORMERS = "transformers"
    OPENAI = "openai"


@dataclass(frozen=True)
class BackendOptions:
    """The base of every backend's options model (a bare one stands for "the defaults")."""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The options this model has."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def pick(cls, values: Mapping[str, Any]) -> Self:
        """The options named in `values`; other names (another backend's options) are left."""
        names = set(cls.names())
        return cls(**{k: v for k, v in values.items() if k in names})

    def as_json(self) -> dict[str, Any]:
        """A plain dict of the options."""
        return asdict(self)


@dataclass(frozen=True)
class TransformersOptions(BackendOptions):
    """A local transformers model."""

    dtype: str = "auto"
    batch_size: int = 8
    device: str = "auto"
    threads: int | None = None
    """Compute threads on the CPU (None: the free usable cores; runs/local/threads.py)."""


@dataclass(frozen=True)
class OpenAIOptions(BackendOptions):
    """Any OpenAI-compatible server. `api_key_env` names the environment variable that holds
    the key: the key itself is never stored."""

    base_url: str | None = None
    api_key_env: str | None = None
    concurrency: int = 8
    timeout_s: float = 60.0
    max_retries: int = 5
    tokenizer: str | None = None
    """Log-prob MCQ: the served model's tokenizer (a local folder or a cached id; default
    --model when that is one), so prompts go as token ids, split exactly as lm-eval splits."""
    native_tools: bool = False
    """Generation: tools as the API's native `tools` parameter."""


OPTIONS: dict[Backend, type[BackendOptions]] = {
    Backend.TRANSFORMERS: TransformersOptions,
    Backend.OPENAI: OpenAIOptions,
}

FLAT_BEFORE_SPLIT: dict[str, Any] = {**asdict(TransformersOptions()), **asdict(OpenAIOptions())}
"""The backend options that were fields of RunConfig itself before they moved to the options
models, at their defaults. The stored JSON of a run of these two backends keeps every one of them
(the other backend's as the run had them, else at the default), so configs stored before the
split read back and give the same fingerprint, and configs stored since read in older releases."""
SPLIT_BACKENDS = (Backend.TRANSFORMERS, Backend.OPENAI)
"""The backends whose runs keep the FLAT_BEFORE_SPLIT fields (a new backend stores its own)."""


def options_for(backend: Backend, values: Mapping[str, Any]) -> BackendOptions:
    """`backend`'s options from flat values, as the CLI and the run form collect them (the
    options of other backends among them are left)."""
    return OPTIONS[backend].pick(values)
