"""The openai backend under faults: retries, errors, concurrency, stopping, keys, start checks."""

from __future__ import annotations

import threading
import time

import pytest
from fake_server import FakeOpenAI
from fake_tasks import FAST_RETRY, make_config, make_task, run_tasks
from fake_wire import closed_port_url

from w2c_tui.domain.runs import Backend, Method, RunStartError, TaskResult
from w2c_tui.runs.api.executor import OpenAIExecutor
from w2c_tui.runs.api.retry import RetryPolicy
from w2c_tui.runs.backends import make_executor

CHAT = "/v1/chat/completions"
KEY_ENV = "W2C_TEST_OPENAI_KEY"
SECRET = "sk-test-0123456789-SECRET"


def executor(
    url: str | None, method: Method = Method.GENERATE, **options: object
) -> OpenAIExecutor:
    return OpenAIExecutor(make_config(url, method, **options), retry=FAST_RETRY)


def by_item(results: list[TaskResult]) -> dict[int, TaskResult]:
    return {r.task.item_id: r for r in results}


def test_transient_failures_are_retried_and_counted() -> None:
    tasks = [
        make_task(1, "a [[fault:429:2]] [[reply:one]]"),
        make_task(2, "b [[fault:500:1]] [[reply:two]]"),
        make_task(3, "c [[fault:slow:1]] [[reply:three]]"),
        make_task(4, "d [[fault:badjson:1]] [[reply:four]]"),
        make_task(5, "e [[reply:five]]"),
    ]
    with FakeOpenAI(slow_s=0.6, retry_after="0") as server:
        results = by_item(run_tasks(executor(server.url, timeout_s=0.25), tasks))
    texts = {i: r.response_text for i, r in results.items()}
    assert texts == {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    assert {i: r.meta["retries"] for i, r in results.items()} == {1: 2, 2: 1, 3: 1, 4: 1, 5: 0}
    assert "HTTP 429" in results[1].meta["last_error"]
    assert "HTTP 500" in results[2].meta["last_error"]
    assert "APITimeoutError" in results[3].meta["last_error"]
    assert "JSONDecodeError" in results[4].meta["last_error"]
    assert "last_error" not in results[5].meta


def test_retry_after_seconds_are_honoured() -> None:
    with FakeOpenAI(retry_after="0.3") as server:
        [result] = run_tasks(executor(server.url), [make_task(1, "x [[fault:429:1]]")])
        first, second = server.requests(CHAT)
    assert result.response_text == "OK" and result.meta["retries"] == 1
    assert second.started - first.started >= 0.28


def test_retry_after_dates_are_honoured_up_to_the_policy_cap() -> None:
    policy = RetryPolicy(base_s=0.001, cap_s=0.002, max_retry_after_s=0.15)
    with FakeOpenAI() as server:
        ex = OpenAIExecutor(make_config(server.url, Method.GENERATE), retry=policy)
        started = time.monotonic()
        [result] = run_tasks(ex, [make_task(1, "x [[fault:429date:1]]")])
        elapsed = time.monotonic() - started
        first, second = server.requests(CHAT)
    assert result.meta["retries"] == 1
    assert second.started - first.started >= 0.1  # the date lies 1–2 s ahead: cut to 0.15 s
    assert elapsed < 0.9


def test_exhausted_retries_and_other_4xx_are_task_errors_and_the_run_goes_on() -> None:
    tasks = [
        make_task(1, "a [[fault:500:*]]"),
        make_task(2, "b [[fault:400:*]]"),
        make_task(3, "c [[reply:fine]]"),
    ]
    with FakeOpenAI() as server:
        results = by_item(run_tasks(executor(server.url, max_retries=2), tasks))
        per_item = {
            i: sum(1 for r in server.requests(CHAT) if f"{ch} [[" in str(r.body))
            for i, ch in ((1, "a"), (2, "b"))
        }
    assert results[1].error and "HTTP 500" in results[1].error
    assert results[1].meta["retries"] == 2 and per_item[1] == 3
    assert results[2].error and "HTTP 400" in results[2].error and "too long" in results[2].error
    assert results[2].meta["retries"] == 0 and per_item[2] == 1
    assert results[1].response_text is None and results[1].label is None
    assert results[3].response_text == "fine" and results[3].error is None


@pytest.mark.parametrize("concurrency", [1, 4])
def test_concurrency_is_bounded_at_the_server(concurrency: int) -> None:
    tasks = [make_task(i, f"q{i}") for i in range(16)]
    with FakeOpenAI(latency_s=0.03) as server:
        results = run_tasks(executor(server.url, concurrency=concurrency), tasks)
        peak = server.max_in_flight
    assert sorted(r.task.item_id for r in results) == list(range(16))
    assert peak == concurrency


def test_results_are_emitted_on_the_callers_thread_as_they_finish() -> None:
    tasks = [make_task(1, "slow one [[fault:slow:1]]"), make_task(2, "quick one")]
    threads: list[int] = []
    order: list[int] = []

    def emit(result: TaskResult) -> None:
        threads.append(threading.get_ident())
        order.append(result.task.item_id)

    with FakeOpenAI(slow_s=0.2) as server:
        executor(server.url, concurrency=2).run(tasks, emit, lambda: False)
    assert order == [2, 1]
    assert set(threads) == {threading.get_ident()}


def test_should_stop_stops_starting_new_tasks() -> None:
    emitted: list[TaskResult] = []
    tasks = [make_task(i, f"q{i}") for i in range(40)]
    with FakeOpenAI(latency_s=0.01) as server:
        ex = executor(server.url, concurrency=2)
        ex.run(tasks, emitted.append, lambda: len(emitted) >= 5)
        sent = len(server.requests(CHAT))
    assert 5 <= len(emitted) <= 6
    assert sent == len(emitted)


def test_an_emit_failure_stops_the_run() -> None:
    def emit(result: TaskResult) -> None:
        raise OSError("database is locked")

    with FakeOpenAI() as server, pytest.raises(OSError, match="database is locked"):
        executor(server.url, concurrency=3).run(
            [make_task(i, "q") for i in range(10)], emit, lambda: False
        )


def test_the_key_reaches_the_server_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    tasks = [make_task(1, "q [[reply:hi]]"), make_task(2, "q [[fault:400echo:*]]")]
    with FakeOpenAI(api_key=SECRET) as server:
        ex = executor(server.url, api_key_env=KEY_ENV)
        ex.check()
        results = by_item(run_tasks(ex, tasks))
        headers = {r.authorization for r in server.seen}
        described = ex.describe()
    assert headers == {f"Bearer {SECRET}"}
    assert results[1].response_text == "hi"
    assert results[2].error and "Bearer ***" in results[2].error
    everything = repr(list(results.values())) + repr(described) + repr(ex) + repr(vars(ex))
    assert SECRET not in everything
    assert described["api_key_env"] == KEY_ENV


def test_a_refused_key_is_a_start_error_without_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-wrong-key-123")
    with FakeOpenAI(api_key=SECRET) as server, pytest.raises(RunStartError) as info:
        executor(server.url, api_key_env=KEY_ENV).check()
    message = str(info.value)
    assert "refused the key in $W2C_TEST_OPENAI_KEY" in message and "HTTP 401" in message
    assert "sk-wrong-key-123" not in message and SECRET not in message


def test_a_missing_key_variable_is_a_start_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with FakeOpenAI() as server:
        ex = executor(server.url, api_key_env=KEY_ENV)
        with pytest.raises(RunStartError, match=f"set the environment variable {KEY_ENV}"):
            ex.check()
        with pytest.raises(RunStartError, match=KEY_ENV):
            run_tasks(ex, [make_task(1, "q")])
        assert server.seen == []


def test_an_unreachable_server_is_a_start_error() -> None:
    started = time.monotonic()
    with pytest.raises(RunStartError, match=r"cannot reach http://127\.0\.0\.1:.*base URL"):
        executor(closed_port_url(), max_retries=5).check()
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("url", ["localhost:8000/v1", "ftp://example.org/v1", "http:///v1"])
def test_a_malformed_base_url_is_a_start_error(url: str) -> None:
    with pytest.raises(RunStartError, match="not an http"):
        executor(url).check()


def test_an_unknown_model_is_a_start_error_that_lists_the_served_ones() -> None:
    with (
        FakeOpenAI(models=("llama-a", "qwen-b")) as server,
        pytest.raises(RunStartError, match=r"'gpt-x' is not served .*llama-a, qwen-b"),
    ):
        executor(server.url, model="gpt-x").check()


def test_servers_without_a_models_endpoint_are_tolerated() -> None:
    with FakeOpenAI(models_endpoint=False) as server:
        executor(server.url).check()
        with pytest.raises(RunStartError, match="'gpt-x' is not served"):
            executor(server.url, model="gpt-x").check()
        assert [r.path for r in server.seen].count(CHAT) == 2


def test_an_unreadable_reply_at_check_is_a_start_error() -> None:
    with FakeOpenAI(models_endpoint=False, broken_paths={CHAT}) as server:
        with pytest.raises(RunStartError, match="unreadable reply: JSONDecodeError"):
            executor(server.url).check()
        assert len(server.requests(CHAT)) == 3  # the probe and two retries


def test_make_executor_builds_the_openai_backend() -> None:
    config = make_config("http://127.0.0.1:1/v1", Method.JUDGE)
    assert config.backend is Backend.OPENAI
    assert isinstance(make_executor(config), OpenAIExecutor)
