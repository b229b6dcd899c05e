"""The openai backend's log-prob MCQ with the four choices in one request (the list form of
`prompt`): the same scores as one prompt at a time, one request per item, servers that refuse
lists or answer them out of order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fake_server import FakeOpenAI
from fake_tasks import (
    COMPLETIONS,
    by_item,
    executor,
    make_task,
    run_tasks,
)
from fake_wire import tokenize
from logprob_oracle import QUESTIONS, expected_lls

from w2c_tui.domain.labels import VerdictStatus
from w2c_tui.domain.runs import Method, TaskResult
from w2c_tui.runs.api.checks import PROBE_TEXT
from w2c_tui.runs.api.executor import OpenAIExecutor
from w2c_tui.runs.prompts import DEFAULT, render

MORE_QUESTIONS = [
    *QUESTIONS,
    "Can you book a table for two at 7pm tonight?",
    "Ünïcödé: what's the forecast for Zürich?",
    "How long is the Nile?\n\n",
]


def _completion_prompts(server: FakeOpenAI) -> list[str | list[str]]:
    return [(r.body or {}).get("prompt", "") for r in server.requests(COMPLETIONS)]


def _logprob_run(
    options: dict[str, object], *, check: bool = True, concurrency: int = 1
) -> tuple[dict[int, TaskResult], OpenAIExecutor, list[str | list[str]], int]:
    """Results by item, the executor, every /completions prompt sent, and how many of those the
    check sent."""
    with FakeOpenAI(**options) as server:  # type: ignore[arg-type]
        ex = executor(server, Method.MCQ_LOGPROB, concurrency=concurrency)
        if check:
            ex.check()
        n_check = len(server.requests(COMPLETIONS))
        tasks = [make_task(i, q) for i, q in enumerate(MORE_QUESTIONS)]
        results = by_item(run_tasks(ex, tasks))
        return results, ex, _completion_prompts(server), n_check


QUIRKS = [
    {},
    {"zero_max_tokens": False},
    {"bos": "<s>"},
    {"display": lambda t: t.replace(" ", "Ġ")},
    {"extra_params": False},
    {"zero_max_tokens": False, "display": lambda t: t.replace(" ", "Ġ"), "bos": "<s>"},
]
QUIRK_IDS = ["plain", "max_tokens-1", "bos-prefix", "byte-level-tokens", "no-extra-params", "all"]


@pytest.mark.parametrize("options", QUIRKS, ids=QUIRK_IDS)
def test_batched_scores_are_the_sequential_scores_exactly(options: dict[str, object]) -> None:
    batched, ex, prompts, _ = _logprob_run(options, concurrency=3)
    sequential, ex_seq, _, _ = _logprob_run({**options, "list_prompts": False}, concurrency=3)
    assert ex.describe()["echo_batch"] is True and ex_seq.describe()["echo_batch"] is False
    assert any(isinstance(p, list) for p in prompts)
    for index, question in enumerate(MORE_QUESTIONS):
        one, other = batched[index], sequential[index]
        assert one.error is None and other.error is None
        assert one.meta["echo_batch"] is True and other.meta["echo_batch"] is False
        assert one.scores == other.scores  # the same floats, not approximately
        assert one.label is other.label
        assert one.scores["loglikelihoods"] == pytest.approx(expected_lls(question), abs=1e-12)


def test_batching_sends_one_request_per_item() -> None:
    results, ex, prompts, n_check = _logprob_run({})
    assert n_check == 2 and prompts[0] == PROBE_TEXT and isinstance(prompts[1], list)
    per_item = prompts[n_check:]
    assert len(per_item) == len(MORE_QUESTIONS)
    for prompt, (index, question) in zip(per_item, enumerate(MORE_QUESTIONS), strict=True):
        task_prompt, choices = render(DEFAULT, make_task(index, question))
        assert prompt == [task_prompt + choice for choice in choices]
    assert all(r.meta["echo_batch"] is True for r in results.values())
    assert ex.endpoint.batch_prompts is True and ex.endpoint.echo_context is False


def test_batching_sends_the_context_along_once_a_split_needs_it() -> None:
    results, ex, prompts, n_check = _logprob_run({"display": lambda t: t.replace(" ", "Ġ")})
    per_item = prompts[n_check:]
    context = render(DEFAULT, make_task(0, MORE_QUESTIONS[0]))[0].rstrip()
    # the first item learns that splits need the context's token count, then asks for it…
    assert [len(p) if isinstance(p, list) else p for p in per_item[:2]] == [4, context]
    # …and every later item sends it with its choices: still one request per item
    assert [len(p) for p in per_item[2:]] == [5] * (len(MORE_QUESTIONS) - 1)
    assert ex.endpoint.echo_context is True
    assert all(r.scores["split"] == "token_count" for r in results.values())


@pytest.mark.parametrize("check", [True, False], ids=["checked", "learned-in-the-run"])
def test_a_server_refusing_list_prompts_is_asked_one_prompt_at_a_time(check: bool) -> None:
    results, ex, prompts, n_check = _logprob_run(
        {"list_prompts": False, "latency_s": 0.01}, check=check, concurrency=4
    )
    lists = [p for p in prompts if isinstance(p, list)]
    assert len(lists) == 1  # refused once, remembered for the rest of the run
    assert len(prompts) - n_check == 4 * len(MORE_QUESTIONS) + (0 if check else 1)
    assert ex.describe()["echo_batch"] is False
    for index, question in enumerate(MORE_QUESTIONS):
        assert results[index].error is None and results[index].meta["echo_batch"] is False
        assert results[index].scores["loglikelihoods"] == pytest.approx(
            expected_lls(question), abs=1e-12
        )


def test_max_tokens_1_batches_never_score_the_generated_token() -> None:
    results, ex, prompts, n_check = _logprob_run({"zero_max_tokens": False})
    assert ex.endpoint.echo_max_tokens == 1 and ex.endpoint.batch_prompts is True
    assert len(prompts) - n_check == len(MORE_QUESTIONS)
    for index, question in enumerate(MORE_QUESTIONS):
        task_prompt, choices = render(DEFAULT, make_task(index, question))
        context = task_prompt.rstrip()
        continuation = [tokenize(task_prompt + c)[len(tokenize(context)) :] for c in choices]
        scores = results[index].scores
        assert scores["n_tokens"] == [len(tokens) for tokens in continuation]
        assert scores["loglikelihoods"] == pytest.approx(expected_lls(question), abs=1e-12)


@pytest.mark.parametrize("check", [True, False], ids=["checked", "learned-in-the-run"])
@pytest.mark.parametrize(
    "options",
    [
        {"batch_quirk": "short"},
        {"batch_quirk": "unindexed"},
        {"batch_quirk": "usage"},
        {"zero_max_tokens": False, "silent_stop": True},
    ],
    ids=["a-choice-missing", "no-indexes", "usage-of-one-prompt", "eos-left-out"],
)
def test_batches_that_cannot_be_matched_to_their_prompts_are_never_scored(
    options: dict[str, object], check: bool
) -> None:
    results, ex, prompts, _ = _logprob_run(
        {**options, "latency_s": 0.01}, check=check, concurrency=3
    )
    # one list request, plus its resending with max_tokens=1 where that is learned on it
    adapted = not check and options.get("zero_max_tokens") is False
    assert len([p for p in prompts if isinstance(p, list)]) == 1 + adapted
    assert ex.endpoint.batch_prompts is False
    for index, question in enumerate(MORE_QUESTIONS):
        assert results[index].error is None and results[index].meta["echo_batch"] is False
        assert results[index].scores["loglikelihoods"] == pytest.approx(
            expected_lls(question), abs=1e-12
        )


def test_choices_are_matched_to_prompts_by_index_not_position() -> None:
    results, ex, _, _ = _logprob_run({"batch_quirk": "reversed"})
    assert ex.endpoint.batch_prompts is True
    for index, question in enumerate(MORE_QUESTIONS):
        assert results[index].meta["echo_batch"] is True
        assert results[index].scores["loglikelihoods"] == pytest.approx(
            expected_lls(question), abs=1e-12
        )


@pytest.mark.parametrize(
    "options", [{}, {"display": lambda t: t.replace(" ", "Ġ")}], ids=["offsets", "token-count"]
)
def test_a_token_spanning_prompt_and_answer_makes_the_item_invalid(
    options: dict[str, Any], tmp_path: Path
) -> None:
    template = tmp_path / "bare.jinja"
    template.write_text("{{ question }}", encoding="utf-8")  # the answer follows the question
    merged = (
        ("direct", "ther in Paris"),
        ("tool_call", "ther"),
        ("request_for_info", "ks"),
        ("cannot_answer", "thermometer"),
    )
    with FakeOpenAI(**options) as server:
        ex = executor(server, Method.MCQ_LOGPROB, template=str(template))
        [result] = run_tasks(ex, [make_task(0, "Tell me the wea", answers=merged)])
        [fine] = run_tasks(ex, [make_task(1, "Tell me the weather.")])
    assert result.status is VerdictStatus.INVALID and result.label is None
    assert result.raw and "spans the end of the prompt" in result.raw
    assert "loglikelihoods" not in result.scores and result.scores["straddles"] == 4
    assert fine.status is VerdictStatus.OK and fine.scores["straddles"] == 0
