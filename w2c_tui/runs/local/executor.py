"""TransformersExecutor: log-prob MCQ and generation on a local transformers model."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from w2c_tui.domain.runs import Method, RunConfig, RunStartError, Task
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.local.loading import (
    LoadedModel,
    config_hash,
    load,
    resolve_device,
    resolve_dtype,
)
from w2c_tui.runs.prompts import CHAT, TemplateError, check_template, template_hash

SUPPORTED = (Method.MCQ_LOGPROB, Method.GENERATE)


class TransformersExecutor:
    """Runs MCQ_LOGPROB (lm-eval ≤ 0.4.9.1 semantics, shared-context KV cache) or GENERATE."""

    def __init__(self, config: RunConfig) -> None:
        self.config = config
        self._loaded: LoadedModel | None = None

    def _check_config(self) -> None:
        config = self.config
        if config.method not in SUPPORTED:
            raise RunStartError(
                f"method {config.method.value!r} is not supported by the transformers backend "
                "yet; use --backend openai"
            )
        if config.batch_size < 1:
            raise RunStartError(f"--batch-size must be at least 1, got {config.batch_size}")
        try:
            check_template(config.template)
        except TemplateError as exc:
            raise RunStartError(str(exc)) from exc

    def check(self) -> None:
        """Load the model and tokenizer (once) and verify that the run can start."""
        self._check_config()
        if self._loaded is None:
            device = resolve_device(self.config.device)
            self._loaded = load(self.config.model, device, resolve_dtype(self.config.dtype, device))
        tok = self._loaded.tokenizer
        if self.config.template == CHAT and not getattr(tok, "chat_template", None):
            raise RunStartError(
                f"the tokenizer of {self.config.model!r} has no chat template: use "
                "--template when2call-default (or another template)"
            )
        if self.config.bos and tok.bos_token_id is None:
            raise RunStartError(
                f"--bos was asked for, but the tokenizer of {self.config.model!r} has no BOS "
                "token: run without --bos"
            )

    def _model(self) -> LoadedModel:
        if self._loaded is None:
            self.check()
        assert self._loaded is not None
        return self._loaded

    def describe(self) -> dict[str, Any]:
        """Library versions, device, dtype, template and its hash, BOS, batch size, model."""
        import torch
        import transformers

        loaded = self._model()
        model = self.config.model
        path = Path(model).expanduser()
        return {
            "backend": "transformers",
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "device": loaded.device,
            "dtype": loaded.dtype,
            "template": self.config.template,
            "template_hash": template_hash(self.config.template, loaded.tokenizer),
            "bos": self.config.bos,
            "batch_size": self.config.batch_size,
            "max_length": loaded.max_length,
            "model_path": str(path.resolve()) if path.exists() else model,
            "model_config_hash": config_hash(model),
            "semantics": "lm-eval<=0.4.9.1 loglikelihood, empty target delimiter",
            **self._mcq_plan(loaded),
        }

    def _mcq_plan(self, loaded: LoadedModel) -> dict[str, Any]:
        """How log-prob scoring runs here (items per forward pass, prefix reuse)."""
        if self.config.method is not Method.MCQ_LOGPROB:
            return {}
        from w2c_tui.runs.local.mcq import forward_batch
        from w2c_tui.runs.local.prefix import reusable

        per_pass = forward_batch(loaded.device, self.config.batch_size)
        return {
            "items_per_pass": per_pass,
            "prefix_reuse": per_pass == 1 and reusable(loaded.model),
            "attention": getattr(loaded.model.config, "_attn_implementation", None),
        }

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Process every task, emitting each result as soon as its batch is done."""
        loaded = self._model()
        config = self.config
        if config.method is Method.MCQ_LOGPROB:
            from w2c_tui.runs.local.mcq import McqRunner

            McqRunner(loaded, config.template, config.bos, config.batch_size).run(
                tasks, emit, should_stop
            )
        else:
            from w2c_tui.runs.local.generate import GenerateRunner

            GenerateRunner(
                loaded,
                config.template,
                config.bos,
                config.batch_size,
                config.temperature,
                config.max_tokens,
            ).run(tasks, emit, should_stop)
