"""The openai backend against the tiny model's server under injected 429, 500, timeouts and
unreadable replies: runs finish with their retries recorded, the judge's random replies
`invalid` with their text kept, and no label the model did not give."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from fake_tasks import make_task, run_tasks
from model_server import ModelOpenAI
from tiny_api import api_executor, by_item
from tiny_models import one_torch_thread  # noqa: F401 (an autouse fixture)

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Method, Task, TaskResult

pytestmark = pytest.mark.slow

FAULTS = ("[[fault:429:1]]", "[[fault:500:1]]", "[[fault:slow:1]]", "[[fault:badjson:1]]")
LAST_ERRORS = ("HTTP 429", "HTTP 500", "APITimeoutError", "JSONDecodeError")
TIMEOUT_S = 4.0
"""Long enough that a busy CI machine answers every request but the slow fault's within it
(at 1 s, a request queued behind another worker's load timed out and was retried once more)."""
REPAIR_SEPARATOR = "\n--- repair turn ---\n"
"""How the judge's raw text joins its first reply and the repair turn's."""


def fault_tasks(response: str | None = None) -> list[Task]:
    """One task per fault marker and one without (item 5)."""
    questions = [f"Weather in Paris? {marker}" for marker in FAULTS] + ["Weather in Rome?"]
    return [make_task(i + 1, q, response=response) for i, q in enumerate(questions)]


def assert_retried(results: dict[int, TaskResult]) -> None:
    assert {i: r.meta["retries"] for i, r in results.items()} == {1: 1, 2: 1, 3: 1, 4: 1, 5: 0}
    for i, expected in enumerate(LAST_ERRORS, start=1):
        assert expected in results[i].meta["last_error"], (i, results[i].meta)
    assert "last_error" not in results[5].meta


def one_reply(replies: list[str]) -> str:
    """The reply to one conversation (a timed-out request may have been answered twice)."""
    assert replies and len(set(replies)) == 1, replies
    return replies[0]


def test_generation_under_faults_keeps_the_models_own_text(server: ModelOpenAI) -> None:
    ex = api_executor(
        server, Method.GENERATE, max_tokens=8, temperature=0.0, timeout_s=TIMEOUT_S, concurrency=5
    )
    ex.check()
    results = by_item(run_tasks(ex, fault_tasks()))
    assert all(r.error is None for r in results.values())
    assert_retried(results)
    for result in results.values():
        replies = server.replies_for(result.task.question)
        assert list(replies) == [2]  # system + user, answered by the model
        assert result.response_text == one_reply(replies[2])
        assert result.meta["finish_reason"] in ("stop", "length")


def test_judging_under_faults_never_invents_a_label(server: ModelOpenAI) -> None:
    valid = 'I call the tool. [[reply:{"classification": "tool_call"}]]'
    prose = "Let me see. [[reply:The answer is tool_call.]]"
    tasks = [
        *fault_tasks("Which city do you mean?"),
        make_task(6, "Weather in Oslo?", response=valid),
        make_task(7, "Weather in Lima?", response=prose),
        make_task(8, "Weather in Baku? [[fault:429:2]]", response=valid),
    ]
    ex = api_executor(server, Method.JUDGE, max_tokens=8, timeout_s=TIMEOUT_S, concurrency=4)
    ex.check()
    assert ex.describe()["structured_output"] is True
    results = by_item(run_tasks(ex, tasks))
    assert all(r.error is None for r in results.values())
    assert_retried({i: results[i] for i in range(1, 6)})
    for i in range(1, 6):  # the random model's replies: invalid, both turns kept
        result = results[i]
        assert result.label is None and result.status is VerdictStatus.INVALID
        assert result.scores["repaired"] is True and result.scores["structured"] is True
        assert result.meta["problem"]
        replies = server.replies_for(result.task.question)
        assert list(replies) == [1, 3]  # the first turn and the repair turn
        assert result.raw == REPAIR_SEPARATOR.join(one_reply(r) for r in replies.values())
    assert results[6].label is Label.TOOL_CALL and results[6].status is VerdictStatus.OK
    assert results[6].raw == '{"classification": "tool_call"}'
    assert results[6].scores["repaired"] is False and results[6].meta["retries"] == 0
    assert results[7].label is None and results[7].status is VerdictStatus.INVALID
    assert results[7].raw == REPAIR_SEPARATOR.join(["The answer is tool_call."] * 2)
    assert results[8].label is Label.TOOL_CALL and results[8].meta["retries"] == 2
    assert server.unconstrained == len(server.replies) > 0


def test_exhausted_retries_are_errors_without_a_verdict(server: ModelOpenAI) -> None:
    tasks = [
        make_task(1, "Weather? [[fault:500:*]]", response="Which city?"),
        make_task(2, "Weather in Oslo?", response="Which city?"),
    ]
    ex = api_executor(server, Method.JUDGE, max_tokens=4, max_retries=2)
    results = by_item(run_tasks(ex, tasks))
    assert results[1].error and "HTTP 500" in results[1].error
    assert results[1].label is None and results[1].raw is None
    assert results[1].meta["retries"] == 2
    assert results[2].error is None and results[2].status is VerdictStatus.INVALID
