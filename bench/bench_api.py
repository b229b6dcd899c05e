"""Benchmark: throughput of the openai backend (GENERATE, JUDGE) at several concurrency levels.

The real `openai` client talks to the tests' fake OpenAI-compatible server on 127.0.0.1
(`tests/runs/fake_server.py`, stdlib `http.server`, one thread per connection), which holds every
request for a fixed latency (default 50 ms) before answering. The server runs in its own process
so that it does not compete with the client for the GIL; `--latency 0` measures the client's own
per-request cost (the openai client's request building and parsing, httpx, our loop). Each
configuration runs `--tasks` tasks through `OpenAIExecutor.run()` (after `check()`, not timed);
the figure is tasks per second of wall time, next to the ceiling `concurrency / latency` and the
peak number of requests the server saw in flight. JUDGE tasks make one call each (valid JSON
on the first turn).

Run: ``.venv/bin/python bench/bench_api.py [--tasks 200] [--latency 0.05] [--levels 1 8 32]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runs"))

from fake_server import FAST_RETRY, FakeOpenAI, make_config, make_task

from w2c_tui.domain.runs import Method, Task, TaskResult
from w2c_tui.runs.api.executor import OpenAIExecutor

JUDGED = 'The model calls the tool. [[reply:{"classification": "tool_call"}]]'


def tasks_for(method: Method, n: int) -> list[Task]:
    if method is Method.JUDGE:
        return [make_task(i, f"Weather in city {i}?", response=JUDGED) for i in range(n)]
    return [make_task(i, f"Weather in city {i}? [[reply:Let me check.]]") for i in range(n)]


def serve(latency: float, out: Queue[str | int], stop: Event) -> None:
    """The server process: sends its URL, serves until `stop`, then sends its peak in-flight."""
    with FakeOpenAI(latency_s=latency) as server:
        out.put(server.url)
        stop.wait()
        out.put(server.max_in_flight)


def measure(method: Method, n: int, latency: float, concurrency: int) -> tuple[float, int, int]:
    """(tasks/s, peak in-flight requests, task errors)."""
    context = multiprocessing.get_context("spawn")
    out: Queue[str | int] = context.Queue()
    stop = context.Event()
    process = context.Process(target=serve, args=(latency, out, stop), daemon=True)
    process.start()
    try:
        url = str(out.get(timeout=30))
        config = make_config(url, method, concurrency=concurrency, timeout_s=30.0)
        executor = OpenAIExecutor(config, retry=FAST_RETRY)
        executor.check()
        results: list[TaskResult] = []
        started = time.perf_counter()
        executor.run(tasks_for(method, n), results.append, lambda: False)
        elapsed = time.perf_counter() - started
        stop.set()
        peak = int(out.get(timeout=30))
    finally:
        stop.set()
        process.join(timeout=10)
    errors = sum(1 for r in results if r.error is not None)
    return len(results) / elapsed, peak, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 8, 32])
    args = parser.parse_args()
    print(f"{args.tasks} tasks, {args.latency * 1000:.0f} ms per request, fake server on 127.0.0.1")
    print(f"{'method':<9} {'conc':>5} {'tasks/s':>9} {'ceiling':>9} {'eff':>6} {'peak':>5}")
    for method in (Method.GENERATE, Method.JUDGE):
        for level in args.levels:
            rate, peak, errors = measure(method, args.tasks, args.latency, level)
            ceiling = level / args.latency if args.latency else None
            shown = f"{ceiling:>9.0f} {rate / ceiling:>6.0%}" if ceiling else f"{'-':>9} {'-':>6}"
            note = f"  errors: {errors}" if errors else ""
            print(f"{method.value:<9} {level:>5} {rate:>9.1f} {shown} {peak:>5}{note}")


if __name__ == "__main__":
    main()
