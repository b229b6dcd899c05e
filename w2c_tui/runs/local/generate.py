"""Free-form responses of a local model (greedy at temperature 0), in left-padded batches."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.local.loading import LoadedModel, free_memory, is_oom, oom_message
from w2c_tui.runs.prompts import CHAT, render
from w2c_tui.runs.prompts.chat import tools_in_prompt


def sample_seed(task: Task) -> int:
    """A seed fixed by the item and the sample index (for temperature > 0)."""
    digest = hashlib.sha256(f"{task.uuid}\x00{task.sample_index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class Generated:
    """One prompt's continuation: its text, its number of new tokens, and whether it stopped at
    an end-of-sequence token (False: cut at max_tokens)."""

    text: str
    n_new: int
    stopped: bool


AllowedTokens = Callable[[list[int]], list[int]]
"""Constrained decoding: the token ids allowed after the tokens generated so far."""


def generate_batch(
    loaded: LoadedModel,
    prompts: list[list[int]],
    max_tokens: int,
    temperature: float,
    seed: int,
    allowed: AllowedTokens | None = None,
) -> list[Generated]:
    """Continue every prompt (left-padded into one batch): greedy at temperature 0, else sampled
    with `torch.manual_seed(seed)`; `allowed` restricts each step's tokens."""
    import torch

    model, pad = loaded.model, loaded.pad_id
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad, dtype=torch.long)
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for i, p in enumerate(prompts):  # left padding: every prompt ends at the same column
        ids[i, width - len(p) :] = torch.tensor(p, dtype=torch.long)
        mask[i, width - len(p) :] = 1
    sampling: dict[str, Any] = {"do_sample": False}
    if temperature > 0:
        torch.manual_seed(seed)
        sampling = {"do_sample": True, "temperature": temperature, "top_k": 0, "top_p": 1.0}
    if allowed is not None:
        constrain = allowed

        def prefix_allowed(_: int, sequence: Any) -> list[int]:
            return constrain(sequence[width:].tolist())

        sampling["prefix_allowed_tokens_fn"] = prefix_allowed
    with torch.inference_mode():
        out = model.generate(
            input_ids=ids.to(model.device),
            attention_mask=mask.to(model.device),
            max_new_tokens=max_tokens,
            pad_token_id=pad,
            **sampling,
        )
    stops = stop_tokens(loaded)
    results = []
    for row in out[:, width:].tolist():
        new = list(row)
        stopped = False
        for n, token in enumerate(new):
            if token in stops:
                new, stopped = new[:n], True
                break
        text = loaded.tokenizer.decode(new, skip_special_tokens=True)
        results.append(Generated(str(text), len(new), stopped))
    return results


def stop_tokens(loaded: LoadedModel) -> set[int]:
    """The ids that end a generation (the generation config's end-of-sequence tokens)."""
    eos = loaded.model.generation_config.eos_token_id
    return set(eos if isinstance(eos, list) else [] if eos is None else [eos])


T = TypeVar("T")


def split_on_failure(
    batch: list[T],
    compute: Callable[[list[T]], list[TaskResult]],
    failed: Callable[[T], Task],
    where: str,
) -> list[TaskResult]:
    """`compute(batch)`; when it raises (out of memory, say), the halves are tried on their own,
    down to single tasks, whose failure becomes that task's error (the run goes on)."""
    try:
        return compute(batch)
    except Exception as exc:
        if is_oom(exc):
            free_memory()
        if len(batch) == 1:
            what = oom_message(where) if is_oom(exc) else f"{type(exc).__name__}: {exc}"
            return [TaskResult(task=failed(batch[0]), error=what)]
        half = len(batch) // 2
        return split_on_failure(batch[:half], compute, failed, where) + split_on_failure(
            batch[half:], compute, failed, where
        )


def in_batches(
    tasks: Sequence[Task],
    size: int,
    batch: Callable[[list[Task]], list[TaskResult]],
    emit: Emit,
    should_stop: ShouldStop,
) -> None:
    """`batch` over consecutive slices of `size` tasks, emitting each slice's results as it
    finishes; a cancelled run stops between slices."""
    for start in range(0, len(tasks), size):
        if should_stop():
            return
        for result in batch(list(tasks[start : start + size])):
            emit(result)


class GenerateRunner:
    """Renders each task's prompt and generates up to `max_tokens` new tokens."""

    def __init__(
        self,
        loaded: LoadedModel,
        template: str,
        bos: bool,
        batch_size: int,
        temperature: float,
        max_tokens: int,
    ) -> None:
        self.loaded = loaded
        self.template = template
        self.bos = bos
        self.batch_size = max(1, batch_size)
        self.temperature = temperature
        self.max_tokens = max_tokens

    def _prompt(self, task: Task) -> tuple[list[int], bool]:
        """Token ids of the prompt and whether the tools are in it."""
        tok = self.loaded.tokenizer
        prompt, _ = render(self.template, task, tok)
        with_tools = (
            tools_in_prompt(tok, task, prompt) if self.template == CHAT else bool(task.tools)
        )
        ids = list(tok(prompt, add_special_tokens=False)["input_ids"])
        if self.bos:
            ids = [tok.bos_token_id, *ids]
        return ids, with_tools

    def _generate(self, prompts: list[list[int]], seed: int) -> list[Generated]:
        return generate_batch(self.loaded, prompts, self.max_tokens, self.temperature, seed)

    def _batch(self, tasks: list[Task]) -> list[TaskResult]:
        prepared: list[tuple[Task, list[int], bool]] = []
        errors: list[TaskResult] = []
        for task in tasks:
            try:
                ids, with_tools = self._prompt(task)
            except Exception as exc:
                errors.append(TaskResult(task=task, error=f"cannot render the prompt: {exc}"))
                continue
            prepared.append((task, ids, with_tools))
        return errors + split_on_failure(prepared, self._compute, lambda p: p[0], "generating")

    def _compute(self, prepared: list[tuple[Task, list[int], bool]]) -> list[TaskResult]:
        if not prepared:
            return []
        outputs = self._generate([p[1] for p in prepared], sample_seed(prepared[0][0]))
        return [
            TaskResult(
                task=task,
                response_text=out.text,
                raw=out.text,
                meta={
                    "tools_in_prompt": with_tools,
                    "template": self.template,
                    "prompt_tokens": len(ids),
                    "completion_tokens": out.n_new,
                    "finish_reason": "stop" if out.stopped else "length",
                },
            )
            for (task, ids, with_tools), out in zip(prepared, outputs, strict=True)
        ]

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Generate for every task, emitting each batch's results as it finishes."""
        in_batches(tasks, self.batch_size, self._batch, emit, should_stop)
