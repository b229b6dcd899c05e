"""The openai backend's generate, judge and MCQ-index methods through the real `openai` client
against a local server (log-prob MCQ: test_api_logprob.py)."""

from __future__ import annotations

import json
from pathlib import Path

from fake_server import FakeOpenAI
from fake_tasks import (
    CHAT,
    by_item,
    executor,
    make_task,
    run_tasks,
)

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Method, TaskResult
from w2c_tui.runs.api import _template
from w2c_tui.runs.judge import REPAIR_REQUEST, judge_prompt_version

# -- GENERATE --


def test_generate_with_tools_in_the_prompt() -> None:
    with FakeOpenAI() as server:
        ex = executor(server, Method.GENERATE, temperature=0.0, max_tokens=64)
        ex.check()
        [result] = run_tasks(ex, [make_task(1, "Weather in Paris? [[reply:Let me check.]]")])
        [request] = server.requests(CHAT)
    assert result.error is None and result.response_text == "Let me check."
    assert result.meta["prompt"] == "tools_in_prompt" and result.meta["retries"] == 0
    body = request.body
    assert body is not None and "tools" not in body
    assert body["temperature"] == 0.0 and body["max_tokens"] == 64
    assert body["messages"] == [
        {"role": "system", "content": _template.system_message()},
        {"role": "user", "content": _template.user_message(*_qt(result))},
    ]
    assert ex.describe()["prompt"] == "when2call-default"


def _qt(result: TaskResult) -> tuple[str, tuple[str, ...]]:
    return result.task.question, result.task.tools


def test_generate_with_native_tools_returns_the_first_call_as_when2call_json() -> None:
    with FakeOpenAI() as server:
        ex = executor(server, Method.GENERATE, native_tools=True)
        ex.check()
        results = by_item(
            run_tasks(
                ex,
                [
                    make_task(1, "Weather in Paris? [[toolcall]]"),
                    make_task(2, "Tell me a joke. [[reply:No tools here.]]", tools=()),
                ],
            )
        )
        bodies = {json.dumps(r.body): r.body for r in server.requests(CHAT)}
    call = results[1]
    assert call.response_text == '{"name": "weather.get_current", "arguments": {"city": "Paris"}}'
    assert call.meta["prompt"] == "native_tools" and call.meta["n_tool_calls"] == 1
    assert json.loads(call.raw or "")[0]["name"] == "weather_get_current"
    assert results[2].response_text == "No tools here."
    sent = next(b for b in bodies.values() if b and "Paris" in json.dumps(b))
    assert sent["messages"] == [{"role": "user", "content": "Weather in Paris? [[toolcall]]"}]
    function = sent["tools"][0]["function"]
    assert function["name"] == "weather_get_current"
    assert function["parameters"]["type"] == "object"
    assert function["parameters"]["properties"]["options"]["type"] == "object"
    no_tools = next(b for b in bodies.values() if b and "joke" in json.dumps(b))
    assert "tools" not in no_tools
    assert ex.describe()["native_tools"] is True


def test_generate_switches_to_max_completion_tokens_where_required() -> None:
    with FakeOpenAI(reasoning_model=True, latency_s=0.01) as server:
        ex = executor(server, Method.GENERATE, max_tokens=99, concurrency=3)
        ex.check()
        results = run_tasks(ex, [make_task(i, f"q{i} [[reply:ok]]") for i in range(3)])
        bodies = [r.body or {} for r in server.requests(CHAT)]
    assert [r.response_text for r in results] == ["ok"] * 3
    assert ex.endpoint.max_tokens_param == "max_completion_tokens"
    assert 1 <= sum("max_tokens" in b for b in bodies) <= 3
    assert [b["max_completion_tokens"] for b in bodies if "max_tokens" not in b] == [99] * 3


# -- JUDGE --

VALID = '[[reply:{"classification": "tool_call"}]]'


def test_judge_reads_valid_repaired_and_invalid_replies() -> None:
    tasks = [
        make_task(1, "Weather?", response=f"I call the tool. {VALID}"),
        make_task(
            2,
            "Weather?",
            response="x [[reply:It asks for info.]] "
            '[[repair:{"classification": "request_for_info"}]]',
        ),
        make_task(3, "Weather?", response="x [[reply:It is clearly a cannot_answer case.]]"),
        make_task(4, "Weather?", response='x [[reply:{"classification": "direct_answer"}]]'),
        make_task(5, "Weather?", response='x [[reply:```json\n{"classification": "direct"}\n```]]'),
        make_task(6, "Weather?", response='x [[reply:{"classification": "refusal"}]]'),
    ]
    with FakeOpenAI() as server:
        ex = executor(server, Method.JUDGE)
        ex.check()
        results = by_item(run_tasks(ex, tasks))
        requests = server.requests(CHAT)
    version = judge_prompt_version("when2call-judge-v1")
    ok = results[1]
    assert (ok.label, ok.status, ok.raw) == (
        Label.TOOL_CALL,
        VerdictStatus.OK,
        '{"classification": "tool_call"}',
    )
    assert ok.scores == {"structured": True, "repaired": False, "fenced": False}
    assert ok.meta["judge_prompt"] == version
    repaired = results[2]
    assert (repaired.label, repaired.status) == (Label.REQUEST_FOR_INFO, VerdictStatus.OK)
    assert repaired.scores["repaired"] is True
    assert (
        repaired.raw
        == 'It asks for info.\n--- repair turn ---\n{"classification": "request_for_info"}'
    )
    for item in (3, 6):
        invalid = results[item]
        assert invalid.label is None and invalid.status is VerdictStatus.INVALID
        assert invalid.error is None and invalid.scores["repaired"] is True
        assert "--- repair turn ---" in (invalid.raw or "")
    assert results[3].raw == (
        "It is clearly a cannot_answer case.\n--- repair turn ---\n"
        "It is clearly a cannot_answer case."
    )
    assert results[6].meta["problem"] == "unknown classification 'refusal'"
    assert results[4].label is Label.DIRECT and results[4].scores["repaired"] is False
    assert results[5].label is Label.DIRECT and results[5].scores["fenced"] is True
    # one probe + six first turns + three repair turns; the repair turn carries the history
    assert len(requests) == 10
    repairs = [r.body for r in requests if r.body and len(r.body["messages"]) == 3]
    assert len(repairs) == 3
    for body in repairs:
        assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
        assert body["messages"][2]["content"] == REPAIR_REQUEST
        assert body["response_format"]["type"] == "json_schema"
    assert ex.describe()["judge_prompt_version"] == version
    assert ex.describe()["structured_output"] is True


def test_judge_prompt_shows_tools_question_and_response() -> None:
    with FakeOpenAI() as server:
        ex = executor(server, Method.JUDGE)
        run_tasks(ex, [make_task(1, "Weather in Paris?", response=f"Calling. {VALID}")])
        [request] = server.requests(CHAT)
    assert request.body is not None
    text = request.body["messages"][0]["content"]
    assert "<USER_QUESTION>\nWeather in Paris?\n</USER_QUESTION>" in text
    assert f"<AI_MODEL_RESPONSE>\nCalling. {VALID}\n</AI_MODEL_RESPONSE>" in text
    assert '<AVAILABLE_TOOLS>\n[{"name": "weather.get_current"' in text


def test_judge_uses_a_prompt_file_given_by_path(tmp_path: Path) -> None:
    mine = tmp_path / "terse.txt"
    mine.write_text('Q: {question}\nA: {response}\nTools: {tools}\n{"classification": ?}')
    with FakeOpenAI() as server:
        ex = executor(server, Method.JUDGE, judge_prompt=str(mine))
        ex.check()
        [result] = run_tasks(ex, [make_task(1, "Weather?", response=f"Calling. {VALID}")])
        sent = server.requests(CHAT)[-1].body or {}
    version = judge_prompt_version(str(mine))
    assert version.startswith("terse@") and result.meta["judge_prompt"] == version
    assert ex.describe()["judge_prompt_version"] == version
    assert sent["messages"][0]["content"].startswith(f"Q: Weather?\nA: Calling. {VALID}\nTools: [")
    assert result.label is Label.TOOL_CALL


def test_judge_falls_back_to_plain_prompting_where_structured_output_is_refused() -> None:
    with FakeOpenAI(structured=False) as server:
        ex = executor(server, Method.JUDGE)
        ex.check()
        assert ex.describe()["structured_output"] is False
        [result] = run_tasks(ex, [make_task(1, "Weather?", response=f"x {VALID}")])
        after_check = [r.body for r in server.requests(CHAT)][2:]
    assert result.label is Label.TOOL_CALL
    assert result.scores["structured"] is False
    assert after_check and all("response_format" not in (b or {}) for b in after_check)


def test_judge_learns_the_fallback_without_check() -> None:
    with FakeOpenAI(structured=False) as server:
        ex = executor(server, Method.JUDGE, concurrency=1)
        results = run_tasks(ex, [make_task(i, "W?", response=f"x {VALID}") for i in range(3)])
        with_format = [r for r in server.requests(CHAT) if "response_format" in (r.body or {})]
    assert [r.label for r in results] == [Label.TOOL_CALL] * 3
    assert all(r.scores["structured"] is False for r in results)
    assert len(with_format) == 1


def test_a_free_form_judge_never_asks_for_structured_output() -> None:
    with FakeOpenAI() as server:  # the server would accept a JSON schema
        ex = executor(server, Method.JUDGE, structured=False)
        ex.check()
        [result] = run_tasks(ex, [make_task(1, "Weather?", response=f"x {VALID}")])
        sent = [r.body or {} for r in server.requests(CHAT)]
    assert ex.describe()["structured_output"] is False
    assert result.label is Label.TOOL_CALL and result.scores["structured"] is False
    assert sent and all("response_format" not in body for body in sent)


def test_judge_task_without_a_response_is_a_task_error() -> None:
    with FakeOpenAI() as server:
        [result] = run_tasks(executor(server, Method.JUDGE), [make_task(1, "W?")])
    assert result.error == "the task has no response to judge" and result.label is None


# -- MCQ_INDEX --


def test_mcq_index_reads_digits_and_keeps_invalid_replies() -> None:
    tasks = [
        make_task(1, "Weather? [[reply:2]]"),
        make_task(2, "Weather? [[reply:I would pick 1 here.]]"),
        make_task(3, "Weather? [[reply:none of these]]"),
    ]
    with FakeOpenAI() as server:
        ex = executor(server, Method.MCQ_INDEX)
        ex.check()
        results = by_item(run_tasks(ex, tasks))
        [request] = [r for r in server.requests(CHAT) if "[[reply:2]]" in json.dumps(r.body)]
    assert (results[1].label, results[1].scores, results[1].raw) == (
        Label.REQUEST_FOR_INFO,
        {"index": 2},
        "2",
    )
    assert results[2].label is Label.TOOL_CALL
    assert results[3].label is None and results[3].status is VerdictStatus.INVALID
    assert results[3].raw == "none of these" and results[3].error is None
    user = request.body["messages"][1]["content"] if request.body else ""
    assert "[3]\nSorry, I cannot look up the weather." in user
    assert ex.describe()["mcq_prompt_version"].startswith("w2c-mcq-index-v1@")
