"""Helper processes for log-prob MCQ on the CPU: each scores items from the other end of the
sorted list while this process scores from the front, until they meet.

Why processes and not threads: a small model's forward passes are many small kernels, which
torch's threads split poorly (on the 2-core dev machine, 300 When2Call items on a 2.9 M-parameter
GPT-2 scored in 10.7 s with two threads and in 6.7 s as two one-thread processes of 150 items
each, bench/README.md). A helper starts when the model is about to load, before torch is
imported here, so its imports and its load overlap ours; it only needs the model's folder and the
rendered prompts (never the database). It is used only where it pays and is cheap: a one-off
run (not the TUI's spot checks, which keep their models), on the CPU, with the threads left to
the plan (`--threads N` or OMP_NUM_THREADS mean one process of N threads), a local model of at
most HELPER_MAX_WEIGHTS bytes of weights, and the memory for a second copy of it.

Work is shared from both ends of one list (`SharedWork`), so the split follows whoever is
faster (a helper that starts late or shares a busy core simply takes fewer items), and both
keep prefix reuse: the front moves up the sorted prompts, a helper moves down them. A helper
that fails or dies hands its unanswered items back; this process scores them.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import psutil

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.executor import Emit, ShouldStop
from w2c_tui.runs.local.helper_process import Helper, Rendered, Reply, SharedWork
from w2c_tui.runs.local.threads import ThreadPlan, usable_cores
from w2c_tui.runs.local.threads import apply as apply_threads

log = logging.getLogger("w2c.local")

MAX_HELPERS = 3
"""At most this many helper processes (beside this one)."""
HELPER_MAX_WEIGHTS = 512 * 2**20
"""Larger models run in one process: their kernels are big enough for threads, and a second
copy of the weights would cost more memory than it saves time."""
PROCESS_OVERHEAD = 800 * 2**20
"""Memory of a helper beyond its weights (torch, transformers, activations): ~600 MB measured."""
MIN_ITEMS = 24
"""Fewer items than this (per process) are scored here alone: a helper's start would not pay."""
FRONT = 4
"""Items this process takes from the front at a time (encoded in one tokenizer call)."""
WAIT_S = 0.5
"""How often the wait for the helpers' last results checks for a cancel."""

ScoreHere = Callable[[list[Rendered]], Iterable[TaskResult]]
"""This process's scorer: rendered items → their results (errors included), in order."""


def weights_bytes(model: str) -> int | None:
    """The size of a local model folder's weight files (None: not a local folder)."""
    folder = Path(model).expanduser()
    if not folder.is_dir():
        return None
    names = ("*.safetensors", "*.bin", "*.pt", "*.pth")
    return sum(f.stat().st_size for pattern in names for f in folder.glob(pattern))


def helpers_wanted(model: str, cores: int) -> int:
    """How many helpers to start for `model` on `cores` usable cores: 0 where a model is not a
    local folder, too large, or there is not the memory for more copies of it."""
    size = weights_bytes(model)
    if size is None or size > HELPER_MAX_WEIGHTS or cores < 2:
        return 0
    try:
        available = int(psutil.virtual_memory().available)
    except (OSError, RuntimeError):
        return 0
    each = 2 * size + PROCESS_OVERHEAD
    return max(0, min(cores - 1, MAX_HELPERS, available // each - 1))


def start_for_run(model: str, dtype: str, template: str, bos: bool) -> HelperPool | None:
    """The helpers a log-prob run of `model` on the CPU starts now (None: none pays)."""
    count = helpers_wanted(model, usable_cores())
    if not count or not sys.executable:
        return None
    try:
        return HelperPool(count, {"model": model, "dtype": dtype, "template": template, "bos": bos})
    except OSError as exc:  # the run goes on in this process alone
        log.warning("no helper process could start (%s): scoring here alone", exc)
        return None


def result_of(task: Task, result: dict[str, Any], helper: int) -> TaskResult:
    """A helper's reply as the TaskResult of `task` (the helper only knew its key)."""
    label = result.get("label")
    status = result.get("status")
    return TaskResult(
        task=task,
        label=Label(label) if label is not None else None,
        status=VerdictStatus(status) if status is not None else None,
        scores=dict(result.get("scores") or {}),
        error=result.get("error"),
        meta={**(result.get("meta") or {}), "scored_by": f"helper {helper}"},
    )


class HelperPool:
    """The helpers of one run: started early, trimmed to the plan, then sharing the work."""

    def __init__(self, count: int, settings: dict[str, Any]) -> None:
        self.helpers: list[Helper] = []
        self.threads = 1
        self.cores: int | None = None
        """The free cores the plan found (`share_cores`): this process takes them all back when
        no helper is left."""
        try:
            for i in range(count):
                self.helpers.append(Helper(i + 1, settings))
        except BaseException:
            self.close()
            raise

    @property
    def pids(self) -> list[int]:
        return [h.pid for h in self.helpers]

    def __len__(self) -> int:
        return len(self.helpers)

    def share_cores(self, plan: ThreadPlan) -> ThreadPlan:
        """Keep one helper per free core of `plan` beyond this process's (as many as were
        started); the plan of each process's threads."""
        self.cores = plan.threads
        kept = min(len(self.helpers), plan.threads - 1)
        each = max(1, plan.threads // (kept + 1))
        self.keep(kept, each)
        if not kept:
            return plan
        return ThreadPlan(
            each,
            f"{plan.reason}; {kept + 1} processes of {each} thread(s) (helper processes score "
            "from the other end)",
        )

    def fit(self, items: int) -> None:
        """Keep only the helpers that `items` items pay for (MIN_ITEMS per process); with none
        left, this process takes the free cores back."""
        self.keep(max(0, min(len(self.helpers), items // MIN_ITEMS - 1)), self.threads)
        if not self.helpers:
            self._give_back()

    def _give_back(self) -> None:
        """This process computes with all the free cores the plan found again."""
        if self.cores is not None:
            apply_threads(ThreadPlan(self.cores, "helpers gone"))

    def keep(self, count: int, threads: int = 1) -> None:
        """Keep the first `count` helpers (each computing with `threads` threads), stop the
        others."""
        for helper in self.helpers[count:]:
            helper.close()
        self.helpers = self.helpers[:count]
        self.threads = threads

    def close(self) -> None:
        """Stop every helper."""
        self.keep(0)

    def share(
        self,
        rendered: Sequence[Rendered],
        here: ScoreHere,
        emit: Emit,
        should_stop: ShouldStop,
    ) -> None:
        """Score `rendered` (sorted) here from the front and in the helpers from the back;
        every item is emitted once, from this thread. When no helper is left while work
        remains, this process takes the free cores back."""
        work = SharedWork(rendered)
        replies: queue.Queue[Reply] = queue.Queue()
        live = set(self.helpers)
        orphans: list[int] = []

        def handle(reply: Reply) -> None:
            if reply.key is not None and reply.result is not None:
                emit(result_of(work.items[reply.key][0], reply.result, reply.helper.number))
                return
            live.discard(reply.helper)
            left = sorted(reply.helper.pending)
            reply.helper.pending.clear()
            orphans.extend(left)
            with contextlib.suppress(subprocess.TimeoutExpired):
                reply.helper.process.wait(timeout=5)  # its output has ended: the exit follows
            if left or reply.helper.failed:
                log.warning(
                    "helper process %d (pid %d) ended early (%s); %d of its items are scored here",
                    reply.helper.number,
                    reply.helper.pid,
                    reply.helper.why_gone(),
                    len(left),
                )
            else:
                log.info(
                    "helper process %d (pid %d) scored %d items",
                    reply.helper.number,
                    reply.helper.pid,
                    reply.helper.scored,
                )
            if not live and (orphans or work.low < work.high):
                self._give_back()

        log.info(
            "%d items: this process scores from the front, helper process(es) %s from the back",
            len(work.items),
            ", ".join(f"{h.number} (pid {h.pid})" for h in self.helpers),
        )
        for helper in self.helpers:
            helper.serve(work, replies, self.threads)
        try:
            while not should_stop():
                _drain(replies, handle)
                keys = work.front(FRONT)
                if not keys:
                    break
                for result in here([work.items[k] for k in keys]):
                    emit(result)
            for helper in self.helpers:
                if not helper.pending:  # nothing of the work is left for it (or still loading)
                    helper.stop()
            while live and not should_stop():
                with contextlib.suppress(queue.Empty):
                    handle(replies.get(timeout=WAIT_S))
            _drain(replies, handle)
            if orphans and not should_stop():
                for result in here([work.items[k] for k in sorted(orphans)]):
                    emit(result)
        finally:
            self.close()


def _drain(replies: queue.Queue[Reply], handle: Callable[[Reply], None]) -> None:
    while True:
        try:
            reply = replies.get_nowait()
        except queue.Empty:
            return
        handle(reply)
