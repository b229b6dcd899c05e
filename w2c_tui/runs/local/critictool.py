"""CRITICTOOL on a local chat model: the official protocol (runs/critictool/runner.py) with each
round's conversations rendered by the tokenizer's chat template and generated as one batch."""

from __future__ import annotations

from collections.abc import Sequence

from w2c_tui.domain.runs import RunConfig, Task, TaskResult
from w2c_tui.runs.critictool.protocol import Messages
from w2c_tui.runs.critictool.runner import run_batch
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.local.generate import generate_batch, in_batches, sample_seed, split_on_failure
from w2c_tui.runs.local.loading import LoadedModel
from w2c_tui.runs.prompts.chat import render_chat

ADVICE = "critictool needs a chat model (an instruct model with a chat template)"


class CriticToolRunner:
    """Runs CriticTool samples `batch_size` at a time (the rounds of a batch go together)."""

    def __init__(self, loaded: LoadedModel, config: RunConfig, batch_size: int) -> None:
        self.loaded = loaded
        self.config = config
        self.batch_size = batch_size
        self._seed = 0

    def _chat(self, conversations: list[Messages]) -> list[str]:
        tok = self.loaded.tokenizer
        prompts = [
            list(
                tok(
                    render_chat(tok, messages, "critictool", advice=ADVICE),
                    add_special_tokens=False,
                )["input_ids"]
            )
            for messages in conversations
        ]
        outputs = generate_batch(
            self.loaded, prompts, self.config.max_tokens, self.config.temperature, self._seed
        )
        return [out.text for out in outputs]

    def _compute(self, tasks: list[Task]) -> list[TaskResult]:
        self._seed = sample_seed(tasks[0])
        return run_batch(tasks, self._chat, self.config)

    def _batch(self, tasks: list[Task]) -> list[TaskResult]:
        return split_on_failure(tasks, self._compute, lambda task: task, "running CriticTool")

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Every task, emitting each batch's results as it finishes."""
        in_batches(tasks, max(1, self.batch_size), self._batch, emit, should_stop)
