"""MCQ log-prob runs: render, encode, score (shared context, reused prefixes), emit results."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.local.encoding import EncodedItem, encode_items
from w2c_tui.runs.local.helper_process import Rendered
from w2c_tui.runs.local.loading import LoadedModel, free_memory, is_oom, oom_message
from w2c_tui.runs.local.prefix import PrefixCache, hidden_width, reusable, score_item
from w2c_tui.runs.local.results import Prepared, mcq_result
from w2c_tui.runs.local.scoring import ChoiceScore, packable, score_full, score_shared
from w2c_tui.runs.prompts import render

WINDOW = 16
"""Batches per window: a window's items are tokenised together (and, on a GPU, length-sorted)."""
LOGITS_BUDGET = 2**28
"""Most logits (rows × positions × vocabulary) one continuation pass may produce."""


def forward_batch(device: str, batch_size: int) -> int:
    """Items per forward pass: `batch_size` on a GPU; one on the CPU, where a padded batch
    loses sdpa's causal fast path (measured ~2x slower per item) and prefix reuse pays more."""
    return 1 if device == "cpu" else batch_size


def model_vocab(model: Any) -> int:
    """The vocabulary size of the model's output layer."""
    return int(model.get_output_embeddings().weight.shape[0])


class McqRunner:
    """Scores tasks with lm-eval ≤ 0.4.9.1 semantics; emits each result when its batch is done.

    One item per pass (the CPU default): items sorted by prompt, each context computed from the
    previous one's cache onwards. Several per pass (GPU): length-sorted padded batches, halved
    on out-of-memory. Items that need left truncation get one full pass per choice."""

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
        self.per_pass = items_per_pass or forward_batch(loaded.device, self.batch_size)
        tok = loaded.tokenizer
        self.bos_id: int | None = tok.bos_token_id if bos else None
        self.prefix_id: int | None = (
            tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
        )
        self.vocab = model_vocab(loaded.model)
        self.prefix = (
            PrefixCache(hidden_width(loaded.model))
            if self.per_pass == 1 and reusable(loaded.model)
            else None
        )

    def _render(self, tasks: Sequence[Task], emit: Emit) -> list[Rendered]:
        rendered: list[Rendered] = []
        for task in tasks:
            try:
                prompt, choices = render(self.template, task, self.loaded.tokenizer)
            except Exception as exc:
                emit(TaskResult(task=task, error=f"cannot render the prompt: {exc}"))
                continue
            rendered.append((task, prompt, choices))
        return rendered

    def _encode_texts(self, texts: list[str]) -> list[list[int]]:
        ids = self.loaded.tokenizer(texts, add_special_tokens=False)["input_ids"]
        return [list(x) for x in ids]

    def _encode(self, rendered: Sequence[Rendered], emit: Emit) -> list[Prepared]:
        """Token ids in one tokenizer call (item by item if it fails, to find the culprit)."""
        pairs = [(prompt, choices) for _, prompt, choices in rendered]
        try:
            encoded: list[EncodedItem | None] = [
                *encode_items(self._encode_texts, pairs, self.bos_id, self.prefix_id)
            ]
        except Exception:
            encoded = []
            for task, prompt, choices in rendered:
                try:
                    encoded += encode_items(
                        self._encode_texts, [(prompt, choices)], self.bos_id, self.prefix_id
                    )
                except Exception as exc:
                    emit(TaskResult(task=task, error=f"cannot tokenise the prompt: {exc}"))
                    encoded.append(None)
        ready: list[Prepared] = []
        for (task, prompt, choices), enc in zip(rendered, encoded, strict=True):
            if enc is None:
                continue
            empty = [name for (name, _), c in zip(task.answers, enc.conts, strict=True) if not c]
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
            ready.append(Prepared(task, prompt, choices, enc))
        return ready

    def _batches(self, items: list[Prepared]) -> Iterator[list[Prepared]]:
        """batch_size items at most; several per pass: longest contexts first, and at most
        LOGITS_BUDGET logits per continuation pass."""
        if self.per_pass == 1:
            for start in range(0, len(items), self.batch_size):
                yield items[start : start + self.batch_size]
            return
        items = sorted(items, key=lambda p: len(p.encoded.ctx), reverse=True)
        batch: list[Prepared] = []
        rows = width = 0
        for item in items:
            item_width = sum(len(c) for c in item.encoded.conts)
            new_rows, new_width = rows + len(item.encoded.conts), max(width, item_width)
            over = new_rows * new_width * self.vocab > LOGITS_BUDGET
            if batch and (len(batch) >= self.batch_size or over):
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
        model, pad = self.loaded.model, self.loaded.pad_id
        if not self._shareable(item):
            once: dict[tuple[int, ...], ChoiceScore] = {}  # a repeated choice: the same score
            for cont in item.encoded.conts:
                if tuple(cont) not in once:
                    once[tuple(cont)] = score_full(
                        model, item.encoded.ctx, cont, self.loaded.max_length
                    )
            full = [once[tuple(cont)] for cont in item.encoded.conts]
            return mcq_result(item, full, self.template, self.bos, "full")
        reused = 0
        if self.prefix is not None and packable(model, [item.encoded]):
            scores, reused = score_item(model, item.encoded, self.prefix, pad)
        else:
            scores = score_shared(model, [item.encoded], pad)[0]
        return mcq_result(item, scores, self.template, self.bos, "kv_cache", reused)

    def _guarded(self, item: Prepared) -> TaskResult:
        """One item on its own; any failure becomes that item's error."""
        try:
            return self._score_one(item)
        except Exception as exc:
            if self.prefix is not None:
                self.prefix.keep([], None)
            if is_oom(exc):
                free_memory()
                return TaskResult(task=item.task, error=oom_message("scoring this item"))
            return TaskResult(task=item.task, error=f"{type(exc).__name__}: {exc}")

    def _score_batch(self, batch: list[Prepared]) -> list[TaskResult]:
        """Shareable items in one pass (halving the batch on out-of-memory), others alone."""
        shared = [p for p in batch if self.per_pass > 1 and self._shareable(p)]
        rest = [p for p in batch if not (self.per_pass > 1 and self._shareable(p))]
        if len(shared) < 2:
            return [self._guarded(p) for p in shared + rest]
        try:
            scores = score_shared(
                self.loaded.model, [p.encoded for p in shared], self.loaded.pad_id
            )
        except Exception as exc:
            if not is_oom(exc):  # isolate the failing item; the others still count
                return [self._guarded(p) for p in batch]
            free_memory()
            half = len(shared) // 2
            results = self._score_batch(shared[:half]) + self._score_batch(shared[half:])
        else:
            results = [
                mcq_result(p, s, self.template, self.bos, "kv_cache")
                for p, s in zip(shared, scores, strict=True)
            ]
        return results + [self._guarded(p) for p in rest]

    def render_sorted(self, tasks: Sequence[Task], emit: Emit) -> list[Rendered]:
        """The tasks' prompts and choices (a failure is emitted as that task's error), sorted
        by prompt where prefixes are reused: neighbours then share the longest prefixes."""
        rendered = self._render(tasks, emit)
        if self.prefix is not None:
            rendered.sort(key=lambda r: r[1])
        return rendered

    def score_rendered(self, rendered: Sequence[Rendered]) -> list[TaskResult]:
        """The results of rendered items, in their order (an item's failure is its error)."""
        out: list[TaskResult] = []
        for batch in self._batches(self._encode(rendered, out.append)):
            out.extend(self._score_batch(batch))
        return out

    def run(self, tasks: Sequence[Task], emit: Emit, should_stop: ShouldStop) -> None:
        """Score every task; should_stop is honoured between batches."""
        rendered = self.render_sorted(tasks, emit)
        window = self.batch_size * WINDOW
        for start in range(0, len(rendered), window):
            if should_stop():
                return
            for batch in self._batches(self._encode(rendered[start : start + window], emit)):
                if should_stop():
                    return
                for result in self._score_batch(batch):
                    emit(result)
