"""Benchmark: a whole API run through the run service with its results stored in SQLite, against
the same run with the writes discarded, and against storing each result on the event loop's
thread (how runs stored results before the writer thread).

The real `openai` client runs GENERATE at concurrency 32 against the tests' fake server
(`tests/runs/fake_server.py`, in its own process, every request held `--latency` seconds) over
`--items` synthetic items imported into a fresh SQLite database (WAL, synchronous=FULL, as the
app opens it). Each mode times `RunService.execute()` from claim to "done":

- `db`: results queued to the writer thread, stored in batched transactions (what runs do);
- `discard`: the same, but the store's `record_many` does nothing;
- `inline`: each result stored in its own transaction on the event loop's thread as it arrives.

The figure is items per second (median of `--repeat` runs per mode, the order of the modes
rotated; one small untimed run first pays for imports and connections); the target is `db`
≥ 90% of `discard`.
Run: ``.venv/bin/python bench/bench_writes.py [--items 1000] [--latency 0.05] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runs"))

from fake_server import FakeOpenAI

from w2c_tui.domain.runs import Backend, Method, RunConfig, TaskResult
from w2c_tui.services import Services, open_services, run_worker

ANSWERS = {
    "direct": "Sure, it is sunny.",
    "tool_call": '{"name": "get_weather", "arguments": {"city": "Oslo"}}',
    "request_for_info": "Which city do you mean?",
    "cannot_answer": "I cannot look that up.",
}
TOOL = '{"name": "get_weather", "description": "Weather now", "parameters": {"type": "dict"}}'


def serve(latency: float, out: Queue[str], control: Queue[str]) -> None:
    """The fake server in its own process until "stop" arrives."""
    with FakeOpenAI(latency_s=latency, default_reply="Let me check the weather for you.") as s:
        out.put(s.url)
        control.get()


def items_file(folder: Path, n: int) -> Path:
    path = folder / "items.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n):
            item = {
                "uuid": f"bench-{i:06d}",
                "question": f"What is the weather in city number {i} right now?",
                "tools": [TOOL],
                "answers": ANSWERS,
                "correct_answer": "tool_call",
            }
            handle.write(json.dumps(item) + "\n")
    return path


class Inline:
    """A writer that stores each result at once on the caller's thread (the old way)."""

    def __init__(self, write: Any) -> None:
        self._write = write

    def put(self, result: TaskResult) -> None:
        self._write([result])

    def close(self) -> None:
        pass


def one_run(svc: Services, url: str, n: int, concurrency: int, mode: str) -> float:
    """Items per second of one run of the `n` items in `mode`."""
    config = RunConfig(
        method=Method.GENERATE,
        backend=Backend.OPENAI,
        model="fake-model",
        dataset="bench",
        base_url=url,
        concurrency=concurrency,
        max_tokens=32,
        limit=n,
    )
    run_id = svc.runs.create(config)
    store = svc.store.runs
    original_record, original_writer = store.record_many, run_worker.ResultWriter
    if mode == "discard":

        def nothing(run: int, batch: Sequence[TaskResult], *_: Any) -> int:
            return len(batch)

        store.record_many = nothing  # type: ignore[method-assign]
    elif mode == "inline":
        run_worker.ResultWriter = Inline  # type: ignore[assignment,misc]
    try:
        start = time.perf_counter()
        info = svc.runs.execute(run_id)
        wall = time.perf_counter() - start
    finally:
        store.record_many = original_record  # type: ignore[method-assign]
        run_worker.ResultWriter = original_writer  # type: ignore[misc]
    assert info.n_error == 0 and (mode == "discard" or info.n_done == n), info
    return n / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="w2c-bench-writes-"))
    os.environ["W2C_ANNOTATIONS_DIR"] = str(work / "annotations")
    svc = open_services(f"sqlite:///{work / 'w2c.db'}")
    svc.imports.import_path(items_file(work, args.items), dataset="bench")
    context = multiprocessing.get_context("spawn")
    out: Queue[str] = context.Queue()
    control: Queue[str] = context.Queue()
    server = context.Process(target=serve, args=(args.latency, out, control), daemon=True)
    server.start()
    url = out.get(timeout=30)
    rates: dict[str, list[float]] = {"db": [], "discard": [], "inline": []}
    modes = list(rates)
    one_run(svc, url, min(64, args.items), args.concurrency, "discard")  # imports, connections
    load_before = os.getloadavg()[0]
    try:
        for k in range(args.repeat):  # rotate, so that every mode sees the same load
            for mode in modes[k % 3 :] + modes[: k % 3]:
                rates[mode].append(one_run(svc, url, args.items, args.concurrency, mode))
    finally:
        control.put("stop")
        server.join(timeout=10)
        svc.close()
    load_after = os.getloadavg()[0]
    ceiling = args.concurrency / args.latency if args.latency else float("inf")
    print(
        f"{args.items} items, GENERATE, concurrency {args.concurrency}, {args.latency * 1000:.0f} "
        f"ms per request (ceiling {ceiling:.0f} items/s); load {load_before:.1f}->"
        f"{load_after:.1f}; {os.cpu_count()} CPUs"
    )
    for mode, values in rates.items():
        shown = ", ".join(f"{v:.0f}" for v in values)
        print(f"  {mode:8} items/s median {statistics.median(values):6.1f}  (runs: {shown})")
    ratio = statistics.median(rates["db"]) / statistics.median(rates["discard"])
    print(f"  db / discard: {100 * ratio:.1f}% (target >= 90%)")
    inline = statistics.median(rates["inline"]) / statistics.median(rates["discard"])
    print(f"  inline / discard: {100 * inline:.1f}% (results stored on the event loop's thread)")


if __name__ == "__main__":
    main()
