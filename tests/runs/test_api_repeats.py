"""Repeats over the API: a seed on every request that samples, an item's repeats as one request
with `n` choices where the server gives them, one request per repeat (each its own seed) where
it does not; recorded either way."""

from __future__ import annotations

import pytest
from fake_server import FakeOpenAI
from fake_tasks import FAST_RETRY, make_config, make_task, run_tasks

from w2c_tui.domain.runs import Method, Task
from w2c_tui.runs.api.executor import OpenAIExecutor

CHAT = "/v1/chat/completions"


def repeats(item_id: int, question: str, k: int, response: str | None = None) -> list[Task]:
    from dataclasses import replace

    task = make_task(item_id, question, response=response)
    return [replace(task, sample_index=i) for i in range(k)]


def run(server: FakeOpenAI, method: Method, tasks: list[Task], **options: object) -> list:
    config = make_config(server.url, method, concurrency=1, **options)
    executor = OpenAIExecutor(config, retry=FAST_RETRY)
    executor.check()
    return sorted(run_tasks(executor, tasks), key=lambda r: (r.task.item_id, r.task.sample_index))


def test_repeats_go_as_n_choices_with_the_seed() -> None:
    tasks = repeats(1, "Weather?", 3) + repeats(2, "Time?", 3)
    with FakeOpenAI(default_reply="Sure") as server:
        results = run(server, Method.GENERATE, tasks, repeats=3, temperature=0.7, seed=11)
        bodies = [r.body for r in server.requests(CHAT) if r.body]
    assert [(b["n"], b["seed"], b["temperature"]) for b in bodies] == [(3, 11, 0.7)] * 2
    assert [r.response_text for r in results] == [f"Sure #{i}" for i in (0, 1, 2)] * 2
    assert all(r.meta["repeats_via"] == "n" and r.meta["seed"] == 11 for r in results)


@pytest.mark.parametrize("how", ["refuse", "one"])
def test_one_request_per_repeat_where_the_server_gives_no_n(how: str) -> None:
    tasks = repeats(1, "Weather?", 3) + repeats(2, "Time?", 2)
    with FakeOpenAI(default_reply="Sure", n_choices=how) as server:
        results = run(server, Method.GENERATE, tasks, repeats=3, temperature=0.7, seed=11)
        bodies = [r.body for r in server.requests(CHAT) if r.body]
    asked_n = [b for b in bodies if b.get("n")]
    assert len(asked_n) == 1  # tried once, then never again
    singles = [b for b in bodies if not b.get("n")]
    assert [b["seed"] for b in singles] == [11, 12, 13, 11, 12]
    assert [r.meta["seed"] for r in results] == [11, 12, 13, 11, 12]
    assert all(r.meta["repeats_via"] == "requests" and r.error is None for r in results)
    assert all(r.response_text == "Sure" for r in results)


def test_mcq_index_repeats_and_judge_seeds() -> None:
    tasks = repeats(1, "Weather? [[reply:2]]", 3)
    with FakeOpenAI() as server:
        results = run(server, Method.MCQ_INDEX, tasks, repeats=3, temperature=1.0, seed=5)
        [body] = [r.body for r in server.requests(CHAT) if r.body]
    assert body["n"] == 3 and body["seed"] == 5
    assert [r.raw for r in results] == ["2 #0", "2 #1", "2 #2"]
    judged = repeats(1, "Weather?", 2, response='[[reply:{"classification": "direct"}]]')
    with FakeOpenAI() as server:
        verdicts = run(server, Method.JUDGE, judged, repeats=2, temperature=0.5, seed=100)
        bodies = [r.body for r in server.requests(CHAT) if r.body]
    assert sorted(b["seed"] for b in bodies if "seed" in b) == [100, 101]
    assert all("n" not in b for b in bodies)  # the judge asks per repeat
    assert [v.meta["seed"] for v in verdicts] == [100, 101]


def test_greedy_requests_carry_no_seed_and_no_n() -> None:
    tasks = repeats(1, "Weather?", 2)
    with FakeOpenAI() as server:
        run(server, Method.GENERATE, tasks, repeats=2, temperature=0.0)
        bodies = [r.body for r in server.requests(CHAT) if r.body]
    assert len(bodies) == 2 and all("seed" not in b and "n" not in b for b in bodies)
