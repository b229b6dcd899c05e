"""The openai backend through the real `openai` client against a real HTTP server on 127.0.0.1
that serves a tiny random transformers model (model_server.py): echoed prompt log-probs equal the
local transformers backend's lm-eval scores, and runs under injected 429, 500, timeouts and
unreadable replies finish with their retries recorded, the judge's random replies `invalid` with
their text kept, and no label the model did not give."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("openai")

from fake_server import FAST_RETRY, make_config, make_task, run_tasks
from model_server import ModelOpenAI
from tiny_models import (
    DEMO,
    cpu_config,
    judge_path,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Method, RunStartError, Task, TaskResult
from w2c_tui.runs.api.executor import OpenAIExecutor
from w2c_tui.runs.local.executor import TransformersExecutor

if TYPE_CHECKING:
    from openai.types import Completion

pytestmark = pytest.mark.slow

MODEL = "tiny-gpt2"
TEMPLATES = ("when2call-default", "when2call-qwen2_5")
"""All demo items under the first; every third under the second (the chat-marker prompt)."""
FAULTS = ("[[fault:429:1]]", "[[fault:500:1]]", "[[fault:slow:1]]", "[[fault:badjson:1]]")
LAST_ERRORS = ("HTTP 429", "HTTP 500", "APITimeoutError", "JSONDecodeError")
TIMEOUT_S = 1.0
SLOW_S = 1.5
REPAIR_SEPARATOR = "\n--- repair turn ---\n"
"""How the judge's raw text joins its first reply and the repair turn's."""


@pytest.fixture(scope="module")
def model_dir() -> Path:
    return tiny_model_dir("gpt2")


@pytest.fixture
def server(model_dir: Path) -> Iterator[ModelOpenAI]:
    """A fresh server per test (fault markers count per server); the model loads once."""
    with ModelOpenAI(model_dir=model_dir, models=(MODEL,), slow_s=SLOW_S, retry_after="0") as s:
        yield s


def api_executor(server: ModelOpenAI, method: Method, **options: object) -> OpenAIExecutor:
    config = make_config(server.url, method, model=MODEL, **options)
    return OpenAIExecutor(config, retry=FAST_RETRY)


def by_item(results: list[TaskResult]) -> dict[int, TaskResult]:
    return {r.task.item_id: r for r in results}


# -- log-prob MCQ: the API path equals the local path --


def edge_tasks() -> list[Task]:
    """Questions ending in whitespace, non-ASCII questions and choices."""
    answers = (
        ("direct", "Le résumé est prêt ✓"),
        ("tool_call", '{"name": "f", "arguments": {}}'),
        ("request_for_info", " Which one?"),
        ("cannot_answer", "\nI can't 🍝."),
    )
    questions = ("Can you help? ", "Tabs and newlines\n\t\n", "Zürich → Genève?")
    return [
        Task(900 + i, f"edge-{i}", q, (), answers, Label.TOOL_CALL) for i, q in enumerate(questions)
    ]


def mcq_tasks(every: int = 1) -> list[Task]:
    """Every `every`-th demo item (30 in all), the edge cases, and three real items ending in
    whitespace when the shared data is present."""
    tasks = load_tasks(DEMO)[::every] + edge_tasks()
    judge = judge_path()
    if judge is not None:
        tasks += [t for t in load_tasks(judge) if t.question != t.question.rstrip()][:3]
    return tasks


def local_mcq(folder: Path, tasks: Sequence[Task], template: str) -> dict[str, TaskResult]:
    config = cpu_config(Method.MCQ_LOGPROB, folder, "test", template=template)
    results: list[TaskResult] = []
    TransformersExecutor(config).run(tasks, results.append, lambda: False)
    return {r.task.uuid: r for r in results}


@pytest.mark.parametrize(("template", "every"), [(TEMPLATES[0], 1), (TEMPLATES[1], 3)])
def test_echoed_log_probs_equal_the_local_backend(
    server: ModelOpenAI, model_dir: Path, template: str, every: int
) -> None:
    tasks = mcq_tasks(every)
    ex = api_executor(server, Method.MCQ_LOGPROB, template=template, concurrency=4)
    ex.check()
    assert ex.endpoint.echo_max_tokens == 0
    remote = {r.task.uuid: r for r in run_tasks(ex, tasks)}
    local = local_mcq(model_dir, tasks, template)
    assert set(remote) == set(local) == {t.uuid for t in tasks}
    worst = 0.0
    for task in tasks:
        api, ref = remote[task.uuid], local[task.uuid]
        assert api.error is None and ref.error is None, (task.uuid, api.error, ref.error)
        assert api.meta["retries"] == 0
        got, want = api.scores["loglikelihoods"], ref.scores["loglikelihoods"]
        for a, b in zip(got, want, strict=True):
            assert abs(a - b) <= 1e-4 + 1e-6 * abs(b), (task.uuid, got, want)
            worst = max(worst, abs(a - b))
        for key in ("pred_raw", "pred_norm", "n_tokens", "is_greedy", "choice_lengths"):
            assert api.scores[key] == ref.scores[key], (task.uuid, key)
        assert api.label is ref.label
        assert api.scores["split"] == "offsets" and api.scores["straddles"] == 0
    print(f"{template}: {len(tasks)} items, {4 * len(tasks)} choices, max |dll| {worst:.2e}")
    requests = server.requests("/v1/completions")
    assert all(r.body and r.body["add_special_tokens"] is False for r in requests)


def test_a_token_across_the_boundary_is_invalid_not_a_label(
    server: ModelOpenAI, model_dir: Path
) -> None:
    """Where encoding context+choice merges tokens across the boundary ("wea" + "ther"), lm-eval
    reads tok(context) + the rest while the server reads tok(context+choice): the echo path
    cannot be exact there, so the item is `invalid` with the reason, its numbers kept apart."""
    split = (
        ("direct", "ther in Paris"),
        ("tool_call", "ther is nice today"),
        ("request_for_info", "ks"),
        ("cannot_answer", "thermometer"),
    )
    tasks = [Task(950, "edge-split", "Tell me the wea", (), split, Label.TOOL_CALL)]
    [api] = run_tasks(api_executor(server, Method.MCQ_LOGPROB), tasks)
    local = local_mcq(model_dir, tasks, "when2call-default")["edge-split"]
    assert local.meta["boundary_merges"] >= 1
    assert api.error is None and api.scores["straddles"] >= 1
    assert api.status is VerdictStatus.INVALID and api.label is None
    assert api.raw is not None and "spans the end of the prompt" in api.raw
    assert "loglikelihoods" not in api.scores
    assert len(api.scores["loglikelihoods_server_tokenisation"]) == 4


def test_bos_is_refused_where_the_server_would_add_none(server: ModelOpenAI) -> None:
    """--bos means a BOS token in front of every context (as the local backend does): this
    tokenizer adds none for add_special_tokens=true, so the run must not start."""
    with pytest.raises(RunStartError, match="adds no BOS token"):
        api_executor(server, Method.MCQ_LOGPROB, bos=True).check()


# -- the server itself --


def test_completions_echo_and_continue_a_list_of_prompts(server: ModelOpenAI) -> None:
    import openai

    client = openai.OpenAI(base_url=server.url, api_key="none", max_retries=0)
    prompts = ["Weather in Zürich? ✓", "Tell me a joke "]

    def echo(prompt: str | list[str]) -> Completion:
        return client.completions.create(
            model=MODEL, prompt=prompt, max_tokens=2, echo=True, logprobs=1, temperature=0.0
        )

    both = echo(prompts)
    assert [c.index for c in both.choices] == [0, 1]
    total = 0
    for prompt, choice in zip(prompts, both.choices, strict=True):
        [alone] = echo(prompt).choices
        assert alone.text == choice.text and alone.text.startswith(prompt)
        logprobs = choice.logprobs
        assert logprobs is not None and logprobs.tokens and logprobs.token_logprobs
        assert logprobs.text_offset and logprobs.top_logprobs
        assert "".join(logprobs.tokens) == choice.text
        assert logprobs.text_offset == [
            sum(len(t) for t in logprobs.tokens[:i]) for i in range(len(logprobs.tokens))
        ]
        assert logprobs.token_logprobs[0] is None and logprobs.top_logprobs[0] is None
        n_prompt = len(logprobs.tokens) - 2
        total += n_prompt
        for value, top in zip(
            logprobs.token_logprobs[n_prompt:], logprobs.top_logprobs[n_prompt:], strict=True
        ):
            assert value is not None and top and value == max(top.values())  # greedy
        assert alone.logprobs is not None and alone.logprobs.token_logprobs == [
            pytest.approx(v, abs=1e-5) if v is not None else None for v in logprobs.token_logprobs
        ]
    assert both.usage is not None and both.usage.prompt_tokens == total
    assert both.usage.completion_tokens == 4
    plain = client.completions.create(model=MODEL, prompt=prompts[0], max_tokens=2, temperature=0)
    assert prompts[0] + plain.choices[0].text == both.choices[0].text


def test_chat_replies_are_the_models_greedy_continuation(server: ModelOpenAI) -> None:
    import openai
    import torch

    client = openai.OpenAI(base_url=server.url, api_key="none", max_retries=0)
    messages = [{"role": "user", "content": "What is the weather in Paris?"}]
    reply = client.chat.completions.create(
        model=MODEL,
        messages=messages,  # type: ignore[arg-type]
        max_tokens=6,
        temperature=0.0,
    )
    loaded = server.loaded
    ids = loaded.tokenizer.apply_chat_template(
        messages, add_generation_prompt=True, return_tensors="pt", return_dict=True
    )["input_ids"]
    with torch.inference_mode():
        out = loaded.model.generate(
            ids,
            max_new_tokens=6,
            do_sample=False,
            eos_token_id=sorted(loaded.stop_ids),
            pad_token_id=loaded.tokenizer.pad_token_id,
        )
    new = out[0, ids.shape[1] :].tolist()
    expected = loaded.tokenizer.decode(
        [t for t in new if t not in loaded.stop_ids], skip_special_tokens=True
    )
    assert reply.choices[0].message.content == expected
    assert reply.usage is not None and reply.usage.completion_tokens == len(new)


# -- faults with the real model --


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
