"""Log-prob MCQ over an OpenAI-compatible server in token-id mode: contexts and continuations
tokenised locally as lm-eval does and sent as ids, so every item is scored exactly — the 300
real items with zero invalid and items whose tokens merge across the prompt/answer boundary —
equal to the local transformers backend within 1e-4 + 1e-6·|ll|, through `prompt_logprobs` and
through echo."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from fake_tasks import FAST_RETRY, make_config, run_tasks
from model_server import ModelOpenAI
from tiny_api import MODEL
from tiny_models import (
    DEMO,
    build_model,
    cpu_config,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    train_tokenizer,
)

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Method, RunStartError, Task, TaskResult
from w2c_tui.runs.api.executor import OpenAIExecutor
from w2c_tui.runs.local.executor import TransformersExecutor

pytestmark = pytest.mark.slow

SPLIT = (
    ("direct", "ther in Paris"),
    ("tool_call", '{"name": "thermostat", "arguments": {}}'),
    ("request_for_info", "ks"),
    ("cannot_answer", "thermometer"),
)
"""Answers whose first token merges with the end of "Tell me the wea" when encoded together."""


def boundary_tasks() -> list[Task]:
    questions = ("Tell me the wea", "Is it the wea", "What about the wea")
    return [
        Task(950 + i, f"split-{i}", q, (), SPLIT, Label.TOOL_CALL) for i, q in enumerate(questions)
    ]


def api_scores(
    server: ModelOpenAI, model_dir: Path, tasks: Sequence[Task], template: str, **options: object
) -> tuple[OpenAIExecutor, dict[str, TaskResult]]:
    config = make_config(
        server.url,
        Method.MCQ_LOGPROB,
        model=MODEL,
        tokenizer=str(model_dir),
        template=template,
        concurrency=2,
        timeout_s=600.0,
        **options,
    )
    executor = OpenAIExecutor(config, retry=FAST_RETRY)
    executor.check()
    return executor, {r.task.uuid: r for r in run_tasks(executor, list(tasks))}


def local_scores(
    model_dir: Path, tasks: Sequence[Task], template: str, bos: bool = False
) -> dict[str, TaskResult]:
    config = cpu_config(Method.MCQ_LOGPROB, model_dir, "test", template=template, bos=bos)
    out: list[TaskResult] = []
    TransformersExecutor(config).run(tasks, out.append, lambda: False)
    return {r.task.uuid: r for r in out}


def assert_equal(remote: dict[str, TaskResult], local: dict[str, TaskResult]) -> float:
    """Every item valid and equal to the local scores; the largest |Δll|."""
    assert set(remote) == set(local)
    worst = 0.0
    for uuid, api in remote.items():
        ref = local[uuid]
        assert api.error is None and ref.error is None, (uuid, api.error, ref.error)
        assert api.status is VerdictStatus.OK and api.label is ref.label, uuid
        for a, b in zip(api.scores["loglikelihoods"], ref.scores["loglikelihoods"], strict=True):
            assert abs(a - b) <= 1e-4 + 1e-6 * abs(b), (uuid, a, b)
            worst = max(worst, abs(a - b))
        for key in ("pred_raw", "pred_norm", "n_tokens", "is_greedy", "choice_lengths"):
            assert api.scores[key] == ref.scores[key], (uuid, key)
        assert api.scores["prompt_mode"] == "token_ids" and api.scores["straddles"] == 0
        assert api.meta["boundary_merges"] == ref.meta["boundary_merges"]
    return worst


def test_all_300_items_and_boundary_items_equal_the_local_backend(
    server: ModelOpenAI, model_dir: Path, judge_file: Path
) -> None:
    tasks = load_tasks(judge_file) + boundary_tasks()
    executor, remote = api_scores(server, model_dir, tasks, "when2call-default")
    described = executor.describe()
    assert described["prompt_mode"] == "token_ids"
    assert described["logprobs_via"] == "prompt_logprobs"
    local = local_scores(model_dir, tasks, "when2call-default")
    worst = assert_equal(remote, local)
    invalid = sum(r.status is not VerdictStatus.OK for r in remote.values())
    merges = sum(r.meta["boundary_merges"] > 0 for r in local.values())
    print(
        f"\n{len(remote)} items, {invalid} invalid, {merges} with boundary merges, "
        f"max |dll| {worst:.2e}"
    )
    assert invalid == 0 and merges >= len(boundary_tasks())
    assert all(r.meta["logprobs_via"] == "prompt_logprobs" for r in remote.values())


@pytest.mark.parametrize("template", ["when2call-llama3_2", "when2call-hermes"])
def test_echo_when_the_server_has_no_prompt_logprobs(model_dir: Path, template: str) -> None:
    tasks = load_tasks(DEMO)[::3] + boundary_tasks()
    with ModelOpenAI(model_dir=model_dir, models=(MODEL,), prompt_logprobs_param=False) as s:
        executor, remote = api_scores(s, model_dir, tasks, template)
        bodies = [r.body for r in s.requests("/v1/completions") if r.body]
    assert executor.describe()["logprobs_via"] == "echo"
    assert_equal(remote, local_scores(model_dir, tasks, template))
    assert all(r.meta["logprobs_via"] == "echo" for r in remote.values())
    assert any(isinstance(b["prompt"], list) and isinstance(b["prompt"][0], list) for b in bodies)


def test_bos_goes_as_an_id_in_token_mode(server: ModelOpenAI, model_dir: Path) -> None:
    """The server's tokenizer adds no BOS for add_special_tokens (so text mode refuses --bos);
    in token mode the BOS id is ours to send, as the local backend puts it first."""
    tasks = load_tasks(DEMO)[:5]
    executor, remote = api_scores(server, model_dir, tasks, "when2call-default", bos=True)
    assert executor.describe()["bos"] is True
    assert_equal(remote, local_scores(model_dir, tasks, "when2call-default", bos=True))


def test_text_mode_where_the_server_refuses_ids(model_dir: Path) -> None:
    tasks = boundary_tasks()[:1]
    with ModelOpenAI(model_dir=model_dir, models=(MODEL,), token_prompts=False) as s:
        executor, remote = api_scores(s, model_dir, tasks, "when2call-default")
    described = executor.describe()
    assert described["prompt_mode"] == "text"
    assert "does not take token-id prompts" in described["text_prompts_because"]
    [result] = remote.values()
    assert result.status is VerdictStatus.INVALID and result.scores["straddles"] >= 1


def test_a_tokenizer_that_is_not_the_servers_is_refused(
    server: ModelOpenAI, tmp_path: Path
) -> None:
    other = build_model(tmp_path / "other", train_tokenizer(["hello world"] * 50, 300))
    config = make_config(
        server.url, Method.MCQ_LOGPROB, model=MODEL, tokenizer=str(other), concurrency=1
    )
    with pytest.raises(RunStartError, match="not the served model's tokenizer"):
        OpenAIExecutor(config, retry=FAST_RETRY).check()
    plain = make_config(server.url, Method.MCQ_LOGPROB, model=MODEL)  # no local tokenizer
    executor = OpenAIExecutor(plain, retry=FAST_RETRY)
    executor.check()
    assert executor.describe()["prompt_mode"] == "text"
    assert "give --tokenizer" in executor.describe()["text_prompts_because"]
