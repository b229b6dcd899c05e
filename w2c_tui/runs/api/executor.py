"""OpenAIExecutor: runs a method against any OpenAI-compatible server, concurrently, with retries.

`run()` is synchronous: it runs its own event loop (call it from a thread with no running loop).
At most `config.concurrency` tasks are in flight; `emit` is called on the loop's thread as each
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
from dataclasses import replace
from typing import Any

from w2c_tui.domain.runs import Method, RunConfig, Task, TaskResult
from w2c_tui.runs import prompts
from w2c_tui.runs.api.calls import Api, Endpoint
from w2c_tui.runs.api.checks import check_config, check_endpoint
from w2c_tui.runs.api.client import (
    Redactor,
    api_key,
    check_base_url,
    import_openai,
    make_client,
    public_url,
)
from w2c_tui.runs.api.echo import NO_ECHO_HELP, NoPromptLogprobs
from w2c_tui.runs.api.generate import generate
from w2c_tui.runs.api.judging import judge
from w2c_tui.runs.api.mcq import mcq_index, mcq_logprob
from w2c_tui.runs.api.retry import DEFAULT_RETRY_POLICY, Attempts, RetryPolicy, describe_error
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.judge import JudgePrompt, load_judge_prompt
from w2c_tui.runs.mcq_index import mcq_index_prompt_version

Handler = Callable[[Api, Task, Attempts], Awaitable[TaskResult]]


class OpenAIExecutor:
    """The `openai` backend (see the module docstring)."""

    def __init__(self, config: RunConfig, *, retry: RetryPolicy = DEFAULT_RETRY_POLICY) -> None:
        self.config = config
        self.retry = retry
        self.endpoint = Endpoint()
        self._judge_prompt: JudgePrompt | None = None

    def check(self) -> None:
        """RunStartError with what to fix: key variable, URL, server, key, model, echo support."""
        check_config(self.config)
        check_base_url(self.config)
        if self.config.method is Method.JUDGE:
            self._prompt()
        asyncio.run(self._with_api(check_endpoint, checking=True))

    def describe(self) -> dict[str, Any]:
        """Library version, endpoint (no key), model and the prompt/protocol choices in use; keys
        the run service reads for the rater's identity: `judge_prompt_version`,
        `mcq_prompt_version`, `template_hash`. Call it after `check()` (which learns what the
        server accepts, e.g. `structured_output`)."""
        config = self.config
        info: dict[str, Any] = {
            "backend": "openai",
            "openai": import_openai().__version__,
            "base_url": public_url(config.base_url),
            "model": config.model,
            "method": config.method.value,
            "api_key_env": config.api_key_env,
        }
        if config.method is Method.GENERATE:
            info["native_tools"] = config.native_tools
            info["prompt"] = "native_tools" if config.native_tools else config.template
        elif config.method is Method.JUDGE:
            info["judge_prompt_version"] = self._prompt().version
            info["structured_output"] = config.structured and self.endpoint.structured
        elif config.method is Method.MCQ_INDEX:
            info["mcq_prompt_version"] = mcq_index_prompt_version()
        else:
            info["template"] = config.template
            info["template_hash"] = prompts.template_hash(config.template)
            info["echo_max_tokens"] = self.endpoint.echo_max_tokens
            info["echo_batch"] = self.endpoint.batch_prompts
            info["bos"] = config.bos if self.endpoint.bos_switch else "server default"
        return info

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Process every task (see the module docstring)."""
        handler = self._handler()

        async def work(api: Api) -> None:
            queue = iter(tasks)

            async def worker() -> None:
                for task in queue:
                    if should_stop():
                        return
                    emit(await _process(api, handler, task))

            lanes = max(1, min(self.config.concurrency, len(tasks)))
            try:
                async with asyncio.TaskGroup() as group:
                    for _ in range(lanes):
                        group.create_task(worker())
            except BaseExceptionGroup as failed:
                raise failed.exceptions[0] from None

        if tasks:
            asyncio.run(self._with_api(work))

    def _prompt(self) -> JudgePrompt:
        if self._judge_prompt is None:
            self._judge_prompt = load_judge_prompt(self.config.judge_prompt)
        return self._judge_prompt

    def _handler(self) -> Handler:
        method = self.config.method
        if method is Method.GENERATE:
            return generate
        if method is Method.MCQ_INDEX:
            return mcq_index
        if method is Method.MCQ_LOGPROB:
            return mcq_logprob
        prompt = self._prompt()

        async def judged(api: Api, task: Task, attempts: Attempts) -> TaskResult:
            return await judge(api, prompt, task, attempts)

        return judged

    async def _with_api(
        self, body: Callable[[Api], Awaitable[None]], *, checking: bool = False
    ) -> None:
        key = api_key(self.config)
        async with make_client(self.config, key) as client:
            api = Api(
                client,
                self.config,
                self.endpoint,
                self.retry,
                Redactor(key),
                checking=checking,
            )
            await body(api)


async def _process(api: Api, handler: Handler, task: Task) -> TaskResult:
    """One task's result; any failure becomes a task error (redacted), retries in meta."""
    attempts = Attempts()
    try:
        result = await handler(api, task, attempts)
    except NoPromptLogprobs as exc:
        result = TaskResult(task=task, error=f"{NO_ECHO_HELP} ({exc})")
    except Exception as exc:
        result = TaskResult(task=task, error=api.redact(describe_error(exc)))
    meta = {**result.meta, "retries": attempts.retries}
    if attempts.last_error is not None:
        meta["last_error"] = attempts.last_error
    return replace(result, meta=meta)
