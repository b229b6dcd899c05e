"""Benchmark: throughput of the openai backend (GENERATE, JUDGE, MCQ_LOGPROB) at several
concurrency levels.

The real `openai` client talks to the tests' fake OpenAI-compatible server on 127.0.0.1
(`tests/runs/fake_server.py`, stdlib `http.server`, one thread per connection), which holds every
request for a fixed latency (default 50 ms) before answering. The server runs in its own process
so that it does not compete with the client for the GIL; `--latency 0` measures the client's own
per-request cost (the openai client's request building and parsing, httpx, our loop). Each
configuration runs `--tasks` tasks through `OpenAIExecutor.run()` (after `check()`, not timed);
the figure is tasks per second of wall time, next to the ceiling `concurrency / latency` (one
request per task), the peak number of requests the server saw in flight and the requests per
task (`check()`'s excluded). JUDGE tasks make one call each (valid JSON on the first turn).
MCQ_LOGPROB scores the four answers of an item: `mcq_logprob` against a server that takes the
list form of `prompt` (one /v1/completions request per item), `mcq_lp_seq` against one that
refuses it with a 400 (the fallback: one request per answer, one after another).

Run: ``.venv/bin/python bench/bench_api.py [--tasks 200] [--latency 0.05] [--levels 1 8 32]
[--methods generate judge mcq_logprob mcq_lp_seq]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runs"))

from fake_server import FakeOpenAI
from fake_tasks import FAST_RETRY, make_config, make_task

from w2c_tui.domain.runs import Method, Task, TaskResult
from w2c_tui.runs.api.executor import OpenAIExecutor

JUDGED = 'The model calls the tool. [[reply:{"classification": "tool_call"}]]'

ROWS: dict[str, tuple[Method, dict[str, Any]]] = {
    "generate": (Method.GENERATE, {}),
    "judge": (Method.JUDGE, {}),
    "mcq_logprob": (Method.MCQ_LOGPROB, {}),
    "mcq_lp_seq": (Method.MCQ_LOGPROB, {"list_prompts": False}),
}
"""Row name: the method and the fake server's options."""


def tasks_for(method: Method, n: int) -> list[Task]:
    if method is Method.JUDGE:
        return [make_task(i, f"Weather in city {i}?", response=JUDGED) for i in range(n)]
    if method is Method.MCQ_LOGPROB:
        return [make_task(i, f"What is the weather in city {i}?") for i in range(n)]
    return [make_task(i, f"Weather in city {i}? [[reply:Let me check.]]") for i in range(n)]


def serve(
    latency: float, options: dict[str, Any], out: Queue[str | int], control: Queue[str]
) -> None:
    """The server process: sends its URL, then the number of requests seen so far for every
    "mark" on `control`, and on "stop" that number and its peak in-flight before it exits."""
    with FakeOpenAI(latency_s=latency, **options) as server:
        out.put(server.url)
        while control.get() != "stop":
            out.put(len(server.seen))
        out.put(len(server.seen))
        out.put(server.max_in_flight)


def measure(
    method: Method, options: dict[str, Any], n: int, latency: float, concurrency: int
) -> tuple[float, int, float, int]:
    """(tasks/s, peak in-flight requests, requests per task, task errors)."""
    context = multiprocessing.get_context("spawn")
    out: Queue[str | int] = context.Queue()
    control: Queue[str] = context.Queue()
    process = context.Process(target=serve, args=(latency, options, out, control), daemon=True)
    process.start()
    try:
        url = str(out.get(timeout=30))
        config = make_config(url, method, concurrency=concurrency, timeout_s=30.0)
        executor = OpenAIExecutor(config, retry=FAST_RETRY)
        executor.check()
        control.put("mark")
        before = int(out.get(timeout=30))
        results: list[TaskResult] = []
        started = time.perf_counter()
        executor.run(tasks_for(method, n), results.append, lambda: False)
        elapsed = time.perf_counter() - started
        control.put("stop")
        after, peak = int(out.get(timeout=30)), int(out.get(timeout=30))
    finally:
        control.put("stop")
        process.join(timeout=10)
    errors = sum(1 for r in results if r.error is not None)
    return len(results) / elapsed, peak, (after - before) / max(len(results), 1), errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--methods", nargs="+", choices=list(ROWS), default=list(ROWS))
    args = parser.parse_args()
    print(f"{args.tasks} tasks, {args.latency * 1000:.0f} ms per request, fake server on 127.0.0.1")
    head = f"{'method':<12} {'conc':>5} {'tasks/s':>9} {'ceiling':>9} {'eff':>6} {'peak':>5}"
    print(f"{head} {'req/task':>9}")
    for name in args.methods:
        method, options = ROWS[name]
        for level in args.levels:
            rate, peak, per_task, errors = measure(method, options, args.tasks, args.latency, level)
            ceiling = level / args.latency if args.latency else None
            shown = f"{ceiling:>9.0f} {rate / ceiling:>6.0%}" if ceiling else f"{'-':>9} {'-':>6}"
            note = f"  errors: {errors}" if errors else ""
            print(f"{name:<12} {level:>5} {rate:>9.1f} {shown} {peak:>5} {per_task:>9.2f}{note}")


if __name__ == "__main__":
    main()
