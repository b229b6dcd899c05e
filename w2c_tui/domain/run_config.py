"""A run's configuration: what it computes (method), on which backend and model, with which
options; its fingerprint identifies the computation (re-exported by domain/runs.py)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, TypeVar

from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.run_options import (
    FLAT_BEFORE_SPLIT,
    OPTIONS,
    SPLIT_BACKENDS,
    Backend,
    BackendOptions,
)

OptionsT = TypeVar("OptionsT", bound=BackendOptions)


class Method(StrEnum):
    """What a run computes."""

    MCQ_LOGPROB = "mcq_logprob"
    GENERATE = "generate"
    JUDGE = "judge"
    MCQ_INDEX = "mcq_index"
    CRITICTOOL = "critictool"
    """CriticTool's inference protocol over a CriticTool dataset (its predictions)."""
    CRITICTOOL_JUDGE = "critictool_judge"
    """An LLM judge answering the CriticTool label questions (answers of the `critictool`
    schema by its rater)."""


class RunStartError(W2CError):
    """A run cannot start; the message says what to fix (bad URL, missing key, no model…)."""


@dataclass(frozen=True)
class RunConfig:
    """Everything that defines a run; its fingerprint identifies the computation.

    What every run has, plus `options`: the options model of `backend` (domain/run_options.py;
    left out: that backend's defaults). `target_model` is the model whose behaviour is evaluated
    (for a judge run: the model whose responses are judged; `model` is then the judge).
    """

    method: Method
    backend: Backend
    model: str
    dataset: str
    template: str = "when2call-default"
    target_model: str | None = None
    judge_prompt: str = "when2call-judge-v1"
    repeats: int = 1
    temperature: float = 0.0
    max_tokens: int = 512
    bos: bool = False
    structured: bool = True
    """Judge: ask for structured output (a JSON schema where the API accepts one; constrained
    decoding locally); False: free text, read strictly, one repair turn."""
    item_filter: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None
    seed: int | None = 0
    """Sampling seed sent with every request that samples (temperature > 0): repeat k of an item
    gets seed + k, so a rerun asks the same questions with the same seeds."""
    critic_mode: str = "skip"
    """CriticTool: what external samples are told to do once retrying fails (skip, finish)."""
    critic_cot: bool = False
    """CriticTool: the chain-of-thought instructions."""
    retry_limit: int = 3
    """CriticTool: retries after the first call of an external sample."""
    options: BackendOptions = field(default_factory=BackendOptions)
    other_options: dict[str, Any] = field(default_factory=dict)
    """Another backend's options as a config stored before the split had them where they were
    not the defaults (e.g. batch_size on an openai run): unused, kept so that the stored JSON and
    the fingerprint read back unchanged."""

    def __post_init__(self) -> None:
        kind = OPTIONS[self.backend]
        if type(self.options) is BackendOptions:
            object.__setattr__(self, "options", kind())
        elif not isinstance(self.options, kind):
            raise TypeError(
                f"the {self.backend.value} backend takes {kind.__name__}, "
                f"not {type(self.options).__name__}"
            )

    @classmethod
    def of(
        cls, method: Method, backend: Backend, model: str, dataset: str, **values: Any
    ) -> RunConfig:
        """A config from flat values: the common fields by name, the rest options of `backend`
        (TypeError for a name that is neither)."""
        common = {k: v for k, v in values.items() if k in COMMON_FIELDS}
        options = OPTIONS[backend](**{k: v for k, v in values.items() if k not in COMMON_FIELDS})
        return cls(method, backend, model, dataset, **common, options=options)

    def options_as(self, kind: type[OptionsT]) -> OptionsT:
        """The options, as the model `kind` the caller's backend has (TypeError otherwise)."""
        if not isinstance(self.options, kind):
            raise TypeError(f"a {self.backend.value} run has no {kind.__name__}")
        return self.options

    def as_json(self) -> dict[str, Any]:
        """A flat dict (enums as their values): the common fields and the backend's options side
        by side, as RunConfig stored them before the options moved to their own models."""
        data = {name: getattr(self, name) for name in COMMON_FIELDS}
        data["item_filter"] = dict(self.item_filter)
        data["method"] = self.method.value
        data["backend"] = self.backend.value
        if self.backend in SPLIT_BACKENDS:
            data.update(FLAT_BEFORE_SPLIT)
            data.update(self.other_options)
        data.update(self.options.as_json())
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        """The inverse of as_json (unknown keys are left)."""
        backend = Backend(data["backend"])
        kind = OPTIONS[backend]
        own = set(kind.names())
        other = {
            k: v
            for k, v in data.items()
            if k in FLAT_BEFORE_SPLIT and k not in own and v != FLAT_BEFORE_SPLIT[k]
        }
        common = {k: v for k, v in data.items() if k in COMMON_FIELDS}
        common["method"] = Method(common["method"])
        common["backend"] = backend
        return cls(
            **common,
            options=kind.pick(data),
            other_options=other if backend in SPLIT_BACKENDS else {},
        )

    def fingerprint(self, extra: dict[str, Any] | None = None) -> str:
        """sha256 (first 16 hex) of the canonical JSON of the config plus `extra`."""
        payload = {"config": self.as_json(), **(extra or {})}
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


COMMON_FIELDS = tuple(
    f.name for f in fields(RunConfig) if f.name not in ("options", "other_options")
)
"""The fields every run has, whatever its backend."""
