"""The openai backend's log-prob MCQ through the real `openai` client against a local server:
echoed prompt log-probs scored by lm-eval's rule, server quirks, what the check refuses (the
four choices in one request: test_api_logprob_batching.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fake_server import FakeOpenAI
from fake_tasks import (
    ANSWERS,
    COMPLETIONS,
    by_item,
    executor,
    make_task,
    run_tasks,
)
from fake_wire import tokenize
from logprob_oracle import QUESTIONS, expected_lls

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Method, RunStartError, TaskResult


def run_logprob(server: FakeOpenAI, *, check: bool = True) -> list[TaskResult]:
    ex = executor(server, Method.MCQ_LOGPROB, concurrency=2)
    if check:
        ex.check()
    return run_tasks(ex, [make_task(i, q) for i, q in enumerate(QUESTIONS)])


def test_logprob_sums_the_echoed_continuation_tokens() -> None:
    with FakeOpenAI() as server:
        results = by_item(run_logprob(server))
        bodies = [r.body for r in server.requests(COMPLETIONS)]
    for index, question in enumerate(QUESTIONS):
        result = results[index]
        lls = expected_lls(question)
        assert result.error is None and result.status is VerdictStatus.OK
        assert result.scores["loglikelihoods"] == pytest.approx(lls, abs=1e-12)
        best = max(range(4), key=lambda i: lls[i])
        assert result.label is Label.from_index(best)
        assert result.scores["pred_raw"] == Label.from_index(best).value
        lengths = [len(text) for _, text in ANSWERS]
        norm = max(range(4), key=lambda i: lls[i] / lengths[i])
        assert result.scores["pred_norm"] == Label.from_index(norm).value
        assert result.scores["choice_lengths"] == lengths
        assert result.scores["split"] == "offsets" and result.scores["is_greedy"] == [True] * 4
    assert results[1].scores["n_tokens"][0] == len(tokenize("  \n" + ANSWERS[0][1]))
    assert all(b and b["echo"] is True and b["logprobs"] == 1 for b in bodies)
    assert all(b and b["max_tokens"] == 0 and b["add_special_tokens"] is False for b in bodies)


@pytest.mark.parametrize(
    "options",
    [
        {"zero_max_tokens": False},
        {"bos": "<s>"},
        {"display": lambda t: t.replace(" ", "Ġ")},
        {"extra_params": False},
    ],
    ids=["max_tokens-1", "bos-prefix", "byte-level-tokens", "no-extra-params"],
)
def test_logprob_scores_do_not_depend_on_server_quirks(options: dict[str, object]) -> None:
    with FakeOpenAI(bos=options.pop("bos", None), **options) as server:  # type: ignore[arg-type]
        ex = executor(server, Method.MCQ_LOGPROB)
        ex.check()
        results = by_item(run_tasks(ex, [make_task(i, q) for i, q in enumerate(QUESTIONS)]))
        described = ex.describe()
    for index, question in enumerate(QUESTIONS):
        assert results[index].error is None
        assert results[index].scores["loglikelihoods"] == pytest.approx(
            expected_lls(question), abs=1e-12
        )
    split = results[0].scores["split"]
    assert split == ("token_count" if "display" in options else "offsets")
    assert described["echo_max_tokens"] == (1 if "zero_max_tokens" in options else 0)
    assert described["bos"] == ("server default" if "extra_params" in options else False)


def test_bos_is_honoured_or_refused_at_check() -> None:
    with FakeOpenAI(bos="<s>") as server:  # the server's tokenizer adds a BOS when asked
        ex = executor(server, Method.MCQ_LOGPROB, bos=True)
        ex.check()
        [result] = run_tasks(ex, [make_task(0, QUESTIONS[0])])
        assert result.error is None and ex.describe()["bos"] is True
        sent = [s.body for s in server.requests("/v1/completions")]
        assert sent[-1] and sent[-1]["add_special_tokens"] is True
    with (
        FakeOpenAI() as server,  # a tokenizer without BOS: add_special_tokens adds nothing
        pytest.raises(RunStartError, match="adds no BOS token"),
    ):
        executor(server, Method.MCQ_LOGPROB, bos=True).check()
    with (
        FakeOpenAI(bos="<s>", extra_params=False) as server,  # the switch is refused
        pytest.raises(RunStartError, match="does not take `add_special_tokens`"),
    ):
        executor(server, Method.MCQ_LOGPROB, bos=True).check()


def test_logprob_adapts_during_a_concurrent_run_without_check() -> None:
    with FakeOpenAI(zero_max_tokens=False, extra_params=False, latency_s=0.01) as server:
        ex = executor(server, Method.MCQ_LOGPROB, concurrency=2)
        results = by_item(run_tasks(ex, [make_task(i, q) for i, q in enumerate(QUESTIONS)]))
    for index, question in enumerate(QUESTIONS):
        assert results[index].error is None
        assert results[index].scores["loglikelihoods"] == pytest.approx(
            expected_lls(question), abs=1e-12
        )
    assert (ex.endpoint.echo_max_tokens, ex.endpoint.bos_switch) == (1, False)


@pytest.mark.parametrize("options", [{"echo": False}, {"logprobs": False}])
def test_servers_without_prompt_logprobs_are_refused_at_check(options: dict[str, Any]) -> None:
    with (
        FakeOpenAI(**options) as server,
        pytest.raises(RunStartError, match=r"does not return prompt log-probabilities"),
    ):
        executor(server, Method.MCQ_LOGPROB).check()


@pytest.mark.parametrize("options", [{"echo": False}, {"logprobs": False}])
def test_without_check_such_servers_give_task_errors_never_scores(
    options: dict[str, Any],
) -> None:
    with FakeOpenAI(**options) as server:
        results = run_logprob(server, check=False)
    assert len(results) == 2
    for result in results:
        assert result.label is None and result.scores == {} and result.status is None
        assert result.error and "echo+logprobs" in result.error


def test_logprob_refuses_the_chat_template() -> None:
    with FakeOpenAI() as server:
        ex = executor(server, Method.MCQ_LOGPROB, template="chat")
        with pytest.raises(RunStartError, match="needs the model's tokenizer"):
            ex.check()
        assert server.seen == []
