"""OpenAIExecutor: runs a method against any OpenAI-compatible server, concurrently, with retries.

`run()` is synchronous: it runs its own event loop (call it from a thread with no running loop).
At most `options.concurrency` tasks are in flight; `emit` is called on the loop's thread as each
task finishes; `should_stop()` is asked before each task starts. Per-task failures become
TaskResults with `error` set (retries in `meta["retries"]`, the last retried error in
`meta["last_error"]`) and the run goes on. Call `check()` first: it fails fast with what to fix
and learns what the server accepts (structured output, max_tokens=0 on echo, several prompts in
one echo request), which `describe()` then reports. `openai` is imported on first use, not when
this module is imported.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from w2c_tui.domain.run_options import OpenAIOptions
from w2c_tui.domain.runs import Method, RunConfig, Task, TaskResult
from w2c_tui.runs import prompts
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.checks import check_config, check_endpoint
from w2c_tui.runs.api.client import (
    Redactor,
    api_key,
    check_base_url,
    import_openai,
    make_client,
    public_url,
)
from w2c_tui.runs.api.critictool import critictool, critictool_judge
from w2c_tui.runs.api.endpoint import Endpoint
from w2c_tui.runs.api.generate import generate
from w2c_tui.runs.api.judging import judge
from w2c_tui.runs.api.mcq import mcq_index, mcq_logprob
from w2c_tui.runs.api.repeats import Handler, group_repeats, n_handler, process_unit
from w2c_tui.runs.api.retry import DEFAULT_RETRY_POLICY, Attempts, RetryPolicy
from w2c_tui.runs.api.tokens import load_api_tokenizer
from w2c_tui.runs.critictool.judge_prompt import run_prompt
from w2c_tui.runs.critictool.runner import critictool_describe
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.judge import JudgePrompt
from w2c_tui.runs.mcq_index import mcq_index_prompt_version


class OpenAIExecutor:
    """The `openai` backend (see the module docstring)."""

    def __init__(self, config: RunConfig, *, retry: RetryPolicy = DEFAULT_RETRY_POLICY) -> None:
        self.config = config
        self.options = config.options_as(OpenAIOptions)
        self.retry = retry
        self.endpoint = Endpoint()
        self._judge_prompt: JudgePrompt | None = None
        self.tokenizer: Any | None = None

    def check(self) -> None:
        """RunStartError with what to fix: key variable, URL, server, key, model, echo support."""
        check_config(self.config, self.options)
        check_base_url(self.options)
        if self.config.method in (Method.JUDGE, Method.CRITICTOOL_JUDGE):
            self._prompt()
        if self.config.method is Method.MCQ_LOGPROB:
            self.tokenizer, self.endpoint.tokenizer_note = load_api_tokenizer(
                self.config, self.options
            )
        asyncio.run(self._with_api(check_endpoint, checking=True))

    def describe(self) -> dict[str, Any]:
        """Library version, endpoint (no key), model and the prompt/protocol choices in use; keys
        the run service reads for the rater's identity: `judge_prompt_version`,
        `mcq_prompt_version`, `template_hash`. Call it after `check()` (which learns what the
        server accepts, e.g. `structured_output`)."""
        config, options = self.config, self.options
        info: dict[str, Any] = {
            "backend": "openai",
            "openai": import_openai().__version__,
            "base_url": public_url(options.base_url),
            "model": config.model,
            "method": config.method.value,
            "api_key_env": options.api_key_env,
        }
        if config.method is Method.GENERATE:
            info["native_tools"] = options.native_tools
            info["prompt"] = "native_tools" if options.native_tools else config.template
        if config.method is not Method.MCQ_LOGPROB and config.temperature > 0:
            info["seed"] = config.seed if self.endpoint.seed else "refused by the server"
            if n_handler(config) is not None:
                info["repeats_via"] = "n choices, where the server gives them"
        if config.method is Method.GENERATE:
            if not options.native_tools:
                info["template_hash"] = prompts.template_hash(config.template)
        elif config.method in (Method.JUDGE, Method.CRITICTOOL_JUDGE):
            info["judge_prompt_version"] = self._prompt().version
            info["structured_output"] = config.structured and self.endpoint.structured
        elif config.method is Method.MCQ_INDEX:
            info["mcq_prompt_version"] = mcq_index_prompt_version()
        elif config.method is Method.CRITICTOOL:
            info.update(critictool_describe(config))
        else:
            info["template"] = config.template
            info["template_hash"] = prompts.template_hash(config.template)
            info["echo_max_tokens"] = self.endpoint.echo_max_tokens
            info["echo_batch"] = self.endpoint.batch_prompts
            tokens = bool(self.endpoint.token_prompts)
            info["bos"] = config.bos if self.endpoint.bos_switch or tokens else "server default"
            info["prompt_mode"] = "token_ids" if tokens else "text"
            if tokens:
                info["tokenizer"] = options.tokenizer or config.model
                info["tokenizer_vocab"] = len(self.tokenizer) if self.tokenizer else None
                info["logprobs_via"] = (
                    "prompt_logprobs" if self.endpoint.prompt_logprobs else "echo"
                )
            elif self.endpoint.tokenizer_note:
                info["text_prompts_because"] = self.endpoint.tokenizer_note
        return info

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Process every task (see the module docstring); an item's repeats at temperature > 0
        go as one request with `n` choices where the method allows it (`repeats.py`)."""
        handler = self._handler()
        many = n_handler(self.config)
        units = group_repeats(tasks) if many is not None else [[task] for task in tasks]

        async def work(api: Api) -> None:
            queue = iter(units)

            async def worker() -> None:
                for unit in queue:
                    if should_stop():
                        return
                    for result in await process_unit(api, handler, many, unit):
                        emit(result)

            lanes = max(1, min(self.options.concurrency, len(units)))
            try:
                async with asyncio.TaskGroup() as group:
                    for _ in range(lanes):
                        group.create_task(worker())
            except BaseExceptionGroup as failed:
                raise failed.exceptions[0] from None

        if units:
            asyncio.run(self._with_api(work))

    def _prompt(self) -> JudgePrompt:
        if self._judge_prompt is None:
            self._judge_prompt = run_prompt(self.config)
        return self._judge_prompt

    def _handler(self) -> Handler:
        method = self.config.method
        if method is Method.GENERATE:
            return generate
        if method is Method.MCQ_INDEX:
            return mcq_index
        if method is Method.MCQ_LOGPROB:
            return mcq_logprob
        if method is Method.CRITICTOOL:
            return critictool
        prompt = self._prompt()
        if method is Method.CRITICTOOL_JUDGE:

            async def critictool_judged(api: Api, task: Task, attempts: Attempts) -> TaskResult:
                return await critictool_judge(api, prompt, task, attempts)

            return critictool_judged

        async def judged(api: Api, task: Task, attempts: Attempts) -> TaskResult:
            return await judge(api, prompt, task, attempts)

        return judged

    async def _with_api(
        self, body: Callable[[Api], Awaitable[None]], *, checking: bool = False
    ) -> None:
        key = api_key(self.options)
        async with make_client(self.options, key) as client:
            api = Api(
                client,
                self.config,
                self.endpoint,
                self.retry,
                Redactor(key),
                checking=checking,
            )
            api.tokenizer = self.tokenizer
            await body(api)
