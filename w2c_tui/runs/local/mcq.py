"""MCQ log-prob runs: render, encode, score in batches, and emit lm-eval-style results."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.local.encoding import EncodedItem, encode_items
from w2c_tui.runs.local.loading import LoadedModel, free_memory, is_oom, oom_message
from w2c_tui.runs.local.scoring import ChoiceScore, score_full, score_shared
from w2c_tui.runs.prompts import render

WINDOW = 16
"""Batches per window: a window's items are encoded together and sorted by length."""
LOGITS_BUDGET = 2**28
"""Most logits (rows × positions × vocabulary) one continuation pass may produce."""


@dataclass(frozen=True)
class Prepared:
    """A task with its rendered choices and token ids."""

    task: Task
    choices: list[str]
    encoded: EncodedItem


def argmax_first(values: Sequence[float]) -> int:
    """numpy's argmax: the first maximum wins; a NaN wins over everything."""
    import numpy as np

    return int(np.argmax(np.asarray(values, dtype=np.float64)))


def normalised(lls: Sequence[float], lengths: Sequence[int]) -> list[float]:
    """ll / character length, with numpy's division semantics (x/0 → ±inf or NaN)."""
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.asarray(lls, dtype=np.float64) / np.asarray(lengths, dtype=np.float64)
    return [float(x) for x in ratio]


def mcq_result(
    item: Prepared, scores: Sequence[ChoiceScore], template: str, bos: bool, scoring: str
) -> TaskResult:
    """The result in the agreed `scores` format; the label is the raw argmax."""
    lls = [s.ll for s in scores]
    lengths = [len(choice) for choice in item.choices]
    names = [name for name, _ in item.task.answers]
    pred = Label(names[argmax_first(lls)])
    pred_norm = Label(names[argmax_first(normalised(lls, lengths))])
    return TaskResult(
        task=item.task,
        label=pred,
        status=VerdictStatus.OK,
        scores={
            "loglikelihoods": lls,
            "is_greedy": [s.greedy for s in scores],
            "pred_raw": pred.value,
            "pred_norm": pred_norm.value,
            "choice_lengths": lengths,
            "n_tokens": [s.n_tokens for s in scores],
            "template": template,
            "bos": bos,
        },
        meta={"scoring": scoring, "boundary_merges": item.encoded.boundary_merges},
    )


def forward_batch(device: str, batch_size: int) -> int:
    """Items per forward pass: `batch_size` on a GPU; one on the CPU, where a padded batch
    loses sdpa's causal fast path and measured ~2x slower per item than one item at a time."""
    return 1 if device == "cpu" else batch_size


class McqRunner:
    """Scores tasks with the shared-context KV cache, falling back to one pass per choice."""

    def __init__(
        self,
        loaded: LoadedModel,
        template: str,
        bos: bool,
        batch_size: int,
        items_per_pass: int | None = None,
    ) -> None:
        self.loaded = loaded
        self.template = template
        self.bos = bos
        self.batch_size = max(1, batch_size)
        self.forward_batch = items_per_pass or forward_batch(loaded.device, self.batch_size)
        tok = loaded.tokenizer
        self.bos_id: int | None = tok.bos_token_id if bos else None
        prefix = tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
        self.prefix_id: int | None = prefix
        self.vocab = model_vocab(loaded.model)

    def _encode(self, texts: list[str]) -> list[list[int]]:
        ids = self.loaded.tokenizer(texts, add_special_tokens=False)["input_ids"]
        return [list(x) for x in ids]

    def _prepare(self, tasks: Sequence[Task], emit: Emit) -> list[Prepared]:
        rendered: list[tuple[Task, str, list[str]]] = []
        for task in tasks:
            try:
                prompt, choices = render(self.template, task, self.loaded.tokenizer)
            except Exception as exc:
                emit(TaskResult(task=task, error=f"cannot render the prompt: {exc}"))
                continue
            rendered.append((task, prompt, choices))
        pairs = [(prompt, choices) for _, prompt, choices in rendered]
        try:
            encoded = encode_items(self._encode, pairs, self.bos_id, self.prefix_id)
        except Exception:
            encoded = []
            for (task, prompt, choices), pair in zip(rendered, pairs, strict=True):
                try:
                    encoded.extend(encode_items(self._encode, [pair], self.bos_id, self.prefix_id))
                except Exception as exc:
                    emit(TaskResult(task=task, error=f"cannot tokenise the prompt: {exc}"))
                    rendered.remove((task, prompt, choices))
        ready: list[Prepared] = []
        for (task, _, choices), enc in zip(rendered, encoded, strict=True):
            empty = [
                name for (name, _), cont in zip(task.answers, enc.conts, strict=True) if not cont
            ]
            if empty:  # lm-eval fails on these too: nothing of the choice is left to score
                emit(
                    TaskResult(
                        task=task,
                        error=(
                            f"choice {', '.join(empty)} adds no token of its own after the context "
                            "(the whole text encodes to no more tokens than the context)"
                        ),
                    )
                )
                continue
            ready.append(Prepared(task, choices, enc))
        return ready

    def _batches(self, items: list[Prepared]) -> Iterator[list[Prepared]]:
        """Longest contexts first; at most batch_size items and LOGITS_BUDGET logits."""
        items = sorted(items, key=lambda p: len(p.encoded.ctx), reverse=True)
        batch: list[Prepared] = []
        rows = width = 0
        for item in items:
            item_width = max((len(c) for c in item.encoded.conts), default=1)
            new_rows = rows + len(item.encoded.conts)
            new_width = max(width, item_width)
            if batch and (
                len(batch) >= self.batch_size or new_rows * new_width * self.vocab > LOGITS_BUDGET
            ):
                yield batch
                batch, new_rows, new_width = [], len(item.encoded.conts), item_width
            batch.append(item)
            rows, width = new_rows, new_width
        if batch:
            yield batch

    def _shareable(self, item: Prepared) -> bool:
        """No left truncation and a context of two tokens or more."""
        return item.encoded.fits(self.loaded.max_length) and len(item.encoded.ctx) >= 2

    def _score_one(self, item: Prepared) -> TaskResult:
        loaded = self.loaded
        if self._shareable(item):
            scores = score_shared(loaded.model, [item.encoded], loaded.pad_id)[0]
            return mcq_result(item, scores, self.template, self.bos, "kv_cache")
        full = [
            score_full(loaded.model, item.encoded.ctx, cont, loaded.max_length)
            for cont in item.encoded.conts
        ]
        return mcq_result(item, full, self.template, self.bos, "full")

    def _guarded(self, item: Prepared) -> TaskResult:
        """One item on its own; any failure becomes that item's error."""
        try:
            return self._score_one(item)
        except Exception as exc:
            if is_oom(exc):
                free_memory()
                return TaskResult(task=item.task, error=oom_message("scoring this item"))
            return TaskResult(task=item.task, error=f"{type(exc).__name__}: {exc}")

    def _score_batch(self, batch: list[Prepared]) -> list[TaskResult]:
        """Shareable items in one pass (halving the batch on out-of-memory), others alone."""
        shared = [p for p in batch if self._shareable(p)]
        rest = [p for p in batch if not self._shareable(p)]
        results: list[TaskResult] = []
        if self.forward_batch == 1:
            rest = shared + rest
        elif len(shared) > 1:
            try:
                scores = score_shared(
                    self.loaded.model, [p.encoded for p in shared], self.loaded.pad_id
                )
            except Exception as exc:
                if is_oom(exc):
                    free_memory()
                    half = len(shared) // 2
                    results = self._score_batch(shared[:half]) + self._score_batch(shared[half:])
                else:  # isolate the failing item; the others still count
                    results = [self._guarded(p) for p in shared]
            else:
                results = [
                    mcq_result(p, s, self.template, self.bos, "kv_cache")
                    for p, s in zip(shared, scores, strict=True)
                ]
        else:
            rest = shared + rest
        return results + [self._guarded(p) for p in rest]

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Score every task, emitting each result as soon as its batch is done."""
        window = self.batch_size * WINDOW
        for start in range(0, len(tasks), window):
            if should_stop():
                return
            for batch in self._batches(self._prepare(tasks[start : start + window], emit)):
                if should_stop():
                    return
                for result in self._score_batch(batch):
                    emit(result)


def model_vocab(model: Any) -> int:
    """The vocabulary size of the model's output layer."""
    return int(model.get_output_embeddings().weight.shape[0])
