"""The openai backend through the real `openai` client against a real HTTP server on 127.0.0.1
that serves a tiny random transformers model (model_server.py): echoed prompt log-probs equal the
local transformers backend's lm-eval scores; completions and chat replies are the model's own
(the runs under injected faults: test_api_tiny_faults.py)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from fake_tasks import run_tasks
from model_server import ModelOpenAI
from tiny_api import MODEL, api_executor
from tiny_models import (
    DEMO,
    cpu_config,
    judge_path,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
)

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Method, RunStartError, Task, TaskResult
from w2c_tui.runs.local.executor import TransformersExecutor

if TYPE_CHECKING:
    from openai.types import Completion

pytestmark = pytest.mark.slow

TEMPLATES = ("when2call-default", "when2call-qwen2_5")
"""All demo items under the first; every third under the second (the chat-marker prompt)."""


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
