"""TransformersExecutor: log-prob MCQ and generation on a local transformers model."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from w2c_tui.domain.run_options import TransformersOptions
from w2c_tui.domain.runs import Method, RunConfig, RunStartError, Task
from w2c_tui.runs.critictool.judge_prompt import run_prompt
from w2c_tui.runs.critictool.runner import critictool_describe
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.judge import JudgePrompt
from w2c_tui.runs.local.helpers import HelperPool, start_for_run
from w2c_tui.runs.local.loading import (
    LoadedModel,
    ModelCache,
    config_hash,
    load,
    resolve_device,
    resolve_dtype,
)
from w2c_tui.runs.local.threads import (
    BusySample,
    ThreadPlan,
    decided,
    passive_waits,
    plan_threads,
)
from w2c_tui.runs.local.threads import apply as apply_threads
from w2c_tui.runs.mcq_index import mcq_index_prompt_version
from w2c_tui.runs.prompts import CHAT, TemplateError, check_template, template_hash
from w2c_tui.runs.prompts.chat import NO_CHAT_TEMPLATE, chat_template_hash

NVIDIA_DRIVER = Path("/dev/nvidiactl")
"""Where a machine has an NVIDIA driver, `--device auto` is likely CUDA: no helper is started
on a guess (one started is stopped as soon as the device turns out not to be the CPU)."""

CHAT_METHODS = (Method.JUDGE, Method.MCQ_INDEX, Method.CRITICTOOL, Method.CRITICTOOL_JUDGE)
JUDGES = (Method.JUDGE, Method.CRITICTOOL_JUDGE)


class TransformersExecutor:
    """Runs MCQ_LOGPROB (lm-eval ≤ 0.4.9.1 semantics, shared-context KV cache), GENERATE, and
    JUDGE or MCQ_INDEX on a chat model (`runs/local/chat.py`)."""

    def __init__(self, config: RunConfig, models: ModelCache | None = None) -> None:
        self.config = config
        self.options = config.options_as(TransformersOptions)
        self._models = models
        self._threads = decided(self.options.threads)
        self._busy = BusySample() if self._threads is None else None  # read in check()
        self.passive_waits = passive_waits()
        self._loaded: LoadedModel | None = None
        self._judge_prompt: JudgePrompt | None = None
        self._helpers: HelperPool | None = None

    @property
    def threads(self) -> ThreadPlan:
        """The thread plan (of this process), decided once: other processes' load is sampled
        from the executor's creation on (imports included) to the first use; helpers started
        meanwhile are this run's own, and with them the free cores are shared out."""
        if self._threads is None:
            pool = self._helpers
            plan = plan_threads(self.options.threads, self._busy, pool.pids if pool else ())
            self._threads = pool.share_cores(plan) if pool is not None else plan
        return self._threads

    def _start_helpers(self) -> None:
        """Helper processes for a one-off log-prob run on the CPU (`helpers.py`), started
        before the model loads here so that their loads overlap."""
        config, options = self.config, self.options
        if (
            self._helpers is None
            and config.method is Method.MCQ_LOGPROB
            and self._models is None  # the TUI's spot checks keep their models
            and self._threads is None  # --threads N, OMP_NUM_THREADS: one process
            and options.device in ("auto", "cpu")
            and not (options.device == "auto" and NVIDIA_DRIVER.exists())  # likely CUDA
        ):
            self._helpers = start_for_run(config.model, options.dtype, config.template, config.bos)

    def close(self) -> None:
        """Stop the helper processes, if any are left."""
        if self._helpers is not None:
            self._helpers.close()

    def _prompt(self) -> JudgePrompt:
        if self._judge_prompt is None:
            self._judge_prompt = run_prompt(self.config)
        return self._judge_prompt

    def _check_config(self) -> None:
        config = self.config
        if config.method in JUDGES:
            self._prompt()
        if self.options.batch_size < 1:
            raise RunStartError(f"--batch-size must be at least 1, got {self.options.batch_size}")
        try:
            check_template(config.template)
        except TemplateError as exc:
            raise RunStartError(str(exc)) from exc

    def check(self) -> None:
        """Load the model and tokenizer (once) and verify that the run can start."""
        self._check_config()
        if self._loaded is None:
            self._start_helpers()
            try:
                self._loaded = self._load()
            except BaseException:
                self.close()
                raise
        tok = self._loaded.tokenizer
        if self.config.method in CHAT_METHODS and not getattr(tok, "chat_template", None):
            raise RunStartError(
                f"the tokenizer of {self.config.model!r} has no chat template: {NO_CHAT_TEMPLATE}"
            )
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

    def _load(self) -> LoadedModel:
        device = resolve_device(self.options.device)
        if device != "cpu":
            self.close()
            self._helpers = None
        dtype = resolve_dtype(self.options.dtype, device)
        apply_threads(self.threads)
        if self._models is not None:
            return self._models.get(self.config.model, device, dtype)
        return load(self.config.model, device, dtype)

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
        if self.config.method in CHAT_METHODS:
            return self._describe_chat(loaded, torch.__version__, transformers.__version__)
        return {
            "backend": "transformers",
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "device": loaded.device,
            "dtype": loaded.dtype,
            "template": self.config.template,
            "template_hash": template_hash(self.config.template, loaded.tokenizer),
            "bos": self.config.bos,
            "batch_size": self.options.batch_size,
            "max_length": loaded.max_length,
            "model_path": _model_path(model),
            "model_config_hash": config_hash(model),
            "semantics": "lm-eval<=0.4.9.1 loglikelihood, empty target delimiter",
            "threads": self.threads.threads,
            "threads_because": self.threads.reason,
            "helper_processes": len(self._helpers) if self._helpers is not None else 0,
            "omp_wait_policy": "passive" if self.passive_waits else "default",
            "gelu_new_fused": loaded.fused_activations,
            **self._mcq_plan(loaded),
        }

    def _describe_chat(self, loaded: LoadedModel, torch: str, transformers: str) -> dict[str, Any]:
        """For JUDGE and MCQ_INDEX: the prompt version (the rater's identity), decoding, device."""
        config = self.config
        info: dict[str, Any] = {
            "backend": "transformers",
            "torch": torch,
            "transformers": transformers,
            "device": loaded.device,
            "dtype": loaded.dtype,
            "batch_size": self.options.batch_size,
            "model_path": _model_path(config.model),
            "model_config_hash": config_hash(config.model),
            "chat_template_hash": chat_template_hash(loaded.tokenizer),
            "temperature": config.temperature,
        }
        if config.method is Method.JUDGE:
            info["judge_prompt_version"] = self._prompt().version
            info["structured_output"] = "constrained decoding" if config.structured else False
        elif config.method is Method.CRITICTOOL_JUDGE:
            info["judge_prompt_version"] = self._prompt().version
            info["structured_output"] = False
        elif config.method is Method.MCQ_INDEX:
            info["mcq_prompt_version"] = mcq_index_prompt_version()
        else:
            info.update(critictool_describe(config))
        return info

    def _mcq_plan(self, loaded: LoadedModel) -> dict[str, Any]:
        """How log-prob scoring runs here (items per forward pass, prefix reuse)."""
        if self.config.method is not Method.MCQ_LOGPROB:
            return {}
        from w2c_tui.runs.local.mcq import forward_batch
        from w2c_tui.runs.local.prefix import reusable

        per_pass = forward_batch(loaded.device, self.options.batch_size)
        return {
            "items_per_pass": per_pass,
            "prefix_reuse": per_pass == 1 and reusable(loaded.model),
            "attention": getattr(loaded.model.config, "_attn_implementation", None),
        }

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Process every task, emitting each result as soon as its batch is done."""
        loaded = self._model()
        config, batch_size = self.config, self.options.batch_size
        if config.method is Method.MCQ_LOGPROB:
            self._run_mcq(loaded, tasks, emit, should_stop)
        elif config.method is Method.CRITICTOOL:
            from w2c_tui.runs.local.critictool import CriticToolRunner

            CriticToolRunner(loaded, config, batch_size).run(tasks, emit, should_stop)
        elif config.method in CHAT_METHODS:
            from w2c_tui.runs.local.chat import ChatRunner

            ChatRunner(
                loaded,
                config.method,
                prompt=self._prompt() if config.method in JUDGES else None,
                batch_size=batch_size,
                temperature=config.temperature,
                max_tokens=config.max_tokens,
                structured=config.structured,
            ).run(tasks, emit, should_stop)
        else:
            from w2c_tui.runs.local.generate import GenerateRunner

            GenerateRunner(
                loaded,
                config.template,
                config.bos,
                batch_size,
                config.temperature,
                config.max_tokens,
            ).run(tasks, emit, should_stop)

    def _run_mcq(
        self, loaded: LoadedModel, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop
    ) -> None:
        """Log-prob MCQ, shared with the helper processes where there are some."""
        from w2c_tui.runs.local.mcq import McqRunner

        runner = McqRunner(loaded, self.config.template, self.config.bos, self.options.batch_size)
        pool = self._helpers
        try:
            if pool is not None:  # the helpers share one item per pass on the CPU only
                pool.fit(len(tasks) if runner.per_pass == 1 else 0)
            if pool is None or not len(pool):
                runner.run(tasks, emit, should_stop)
                return
            rendered = runner.render_sorted(tasks, emit)
            pool.share(rendered, runner.score_rendered, emit, should_stop)
        finally:
            self.close()


def _model_path(model: str) -> str:
    path = Path(model).expanduser()
    return str(path.resolve()) if path.exists() else model
