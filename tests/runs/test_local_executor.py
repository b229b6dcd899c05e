"""TransformersExecutor: check, describe, the results it emits, cancellation and generation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_models import (
    DEMO,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import (
    Backend,
    Method,
    RunConfig,
    RunStartError,
    TaskResult,
)
from w2c_tui.runs.backends import make_executor
from w2c_tui.runs.local.executor import TransformersExecutor

SCORE_KEYS = {
    "loglikelihoods",
    "is_greedy",
    "pred_raw",
    "pred_norm",
    "choice_lengths",
    "n_tokens",
    "template",
    "bos",
}


def config(model: Path | str, method: Method = Method.MCQ_LOGPROB, **kw: object) -> RunConfig:
    return RunConfig.of(
        method=method, backend=Backend.TRANSFORMERS, model=str(model), dataset="demo", **kw
    )  # type: ignore[arg-type]


def test_importing_the_executor_does_not_import_torch() -> None:
    code = (
        "import sys, w2c_tui.runs.local.executor, w2c_tui.runs.prompts; "
        "assert 'torch' not in sys.modules and 'transformers' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_mcq_results_have_the_agreed_format() -> None:
    tasks = load_tasks(DEMO)[:10]
    executor = make_executor(config(tiny_model_dir("gpt2"), batch_size=3))
    assert isinstance(executor, TransformersExecutor)
    executor.check()
    results: list[TaskResult] = []
    executor.run(tasks, results.append, lambda: False)
    assert sorted(r.task.uuid for r in results) == sorted(t.uuid for t in tasks)
    for result in results:
        assert result.error is None and result.status is VerdictStatus.OK
        scores = result.scores
        assert set(scores) == SCORE_KEYS
        assert len(scores["loglikelihoods"]) == 4 and all(
            isinstance(x, float) and x < 0 for x in scores["loglikelihoods"]
        )
        assert all(isinstance(x, bool) for x in scores["is_greedy"])
        assert scores["choice_lengths"] == [len(text) for _, text in result.task.answers]
        assert all(isinstance(n, int) and n > 0 for n in scores["n_tokens"])
        assert result.label == Label(scores["pred_raw"])
        assert scores["pred_norm"] in {label.value for label in Label}
        assert scores["template"] == "when2call-default" and scores["bos"] is False
        best = max(range(4), key=lambda j: (scores["loglikelihoods"][j], -j))
        assert result.label is Label.from_index(best)


def test_describe_identifies_the_computation() -> None:
    executor = TransformersExecutor(config(tiny_model_dir("gpt2"), batch_size=2))
    executor.check()
    info = executor.describe()
    assert info["device"] == "cpu" and info["dtype"] == "float32"
    assert info["template"] == "when2call-default" and len(info["template_hash"]) == 16
    assert info["bos"] is False and info["batch_size"] == 2 and info["max_length"] == 8192
    assert info["model_path"] == str(tiny_model_dir("gpt2").resolve())
    assert len(info["model_config_hash"]) == 16
    assert {"torch", "transformers"} <= set(info)
    assert info["gelu_new_fused"] == 2  # the tiny GPT-2's two MLPs


def test_gelu_new_runs_fused_with_the_same_values() -> None:
    """gelu_new (six tensor operations) is swapped for the same tanh formula in one kernel;
    the log-probabilities stay within float rounding of the unfused model's."""
    import torch
    from transformers import AutoModelForCausalLM
    from transformers.activations import NewGELUActivation

    from w2c_tui.runs.local.loading import load

    path = tiny_model_dir("gpt2")
    loaded = load(str(path), "cpu", "float32")
    plain = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    assert not any(isinstance(m, NewGELUActivation) for m in loaded.model.modules())
    assert any(isinstance(m, NewGELUActivation) for m in plain.modules())
    ids = torch.arange(1, 300).unsqueeze(0)
    with torch.inference_mode():
        fused = torch.log_softmax(loaded.model(input_ids=ids).logits, dim=-1)
        unfused = torch.log_softmax(plain(input_ids=ids).logits, dim=-1)
    assert torch.allclose(fused, unfused, rtol=0, atol=1e-5)


def test_should_stop_ends_the_run_between_batches() -> None:
    tasks = load_tasks(DEMO)[:12]
    results: list[TaskResult] = []
    executor = TransformersExecutor(config(tiny_model_dir("gpt2"), batch_size=2))
    executor.run(tasks, results.append, lambda: len(results) >= 1)
    assert len(results) == 2  # the first batch finishes, nothing after it starts


def test_a_missing_model_path_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    with pytest.raises(RunStartError, match="no-such-model"):
        TransformersExecutor(config(missing)).check()
    empty = tmp_path / "empty-dir"
    empty.mkdir()
    with pytest.raises(RunStartError, match=r"empty-dir.*config\.json"):
        TransformersExecutor(config(empty)).check()


def test_bad_settings_are_refused_before_loading(tmp_path: Path) -> None:
    with pytest.raises(RunStartError, match="unknown template"):
        TransformersExecutor(config("unused", template=str(tmp_path / "x.jinja"))).check()
    with pytest.raises(RunStartError, match="--dtype"):
        TransformersExecutor(config(tiny_model_dir("gpt2"), dtype="float8")).check()


def test_a_failing_item_is_an_error_and_the_run_goes_on(tmp_path: Path) -> None:
    template = tmp_path / "first-tool.jinja"
    template.write_text("Tool: {{ tools_parsed[0].name }}\nQ: {{ question }}\nA:", encoding="utf-8")
    tasks = load_tasks(DEMO)[:6]  # the first four demo items have no tools
    results: list[TaskResult] = []
    TransformersExecutor(config(tiny_model_dir("qwen2"), template=str(template))).run(
        tasks, results.append, lambda: False
    )
    errors = {r.task.uuid for r in results if r.error}
    assert errors == {t.uuid for t in tasks if not t.tools}
    assert all(r.scores["template"] == str(template) for r in results if not r.error)


def test_chat_template_mcq_scores_the_raw_answers() -> None:
    tasks = load_tasks(DEMO)[4:7]
    results: list[TaskResult] = []
    TransformersExecutor(config(tiny_model_dir("qwen2"), template="chat")).run(
        tasks, results.append, lambda: False
    )
    assert [r.error for r in results] == [None] * 3
    assert all(r.scores["template"] == "chat" for r in results)


def test_generate_produces_text_and_records_the_tools() -> None:
    tasks = load_tasks(DEMO)[2:6]  # two items without tools, two with
    cfg = config(
        tiny_model_dir("gpt2"), Method.GENERATE, template="chat", max_tokens=6, batch_size=4
    )
    first: list[TaskResult] = []
    TransformersExecutor(cfg).run(tasks, first.append, lambda: False)
    assert [r.error for r in first] == [None] * 4
    assert all(isinstance(r.response_text, str) for r in first)
    assert all(0 < r.meta["completion_tokens"] <= 6 for r in first)
    assert [r.meta["tools_in_prompt"] for r in first] == [bool(t.tools) for t in tasks]
    again: list[TaskResult] = []
    TransformersExecutor(cfg).run(tasks, again.append, lambda: False)
    assert [r.response_text for r in again] == [r.response_text for r in first]  # greedy


def test_generate_with_a_when2call_template_and_sampling() -> None:
    tasks = load_tasks(DEMO)[10:12]
    cfg = config(tiny_model_dir("qwen2"), Method.GENERATE, max_tokens=4, temperature=0.8)
    results: list[TaskResult] = []
    TransformersExecutor(cfg).run(tasks, results.append, lambda: False)
    assert [r.error for r in results] == [None, None]
    assert all(r.meta["tools_in_prompt"] is True for r in results)


@pytest.mark.gpu
def test_mcq_on_cuda_in_bfloat16() -> None:
    import torch

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    results: list[TaskResult] = []
    executor = TransformersExecutor(config(tiny_model_dir("qwen2"), device="cuda"))
    executor.run(load_tasks(DEMO)[:4], results.append, lambda: False)
    assert executor.describe()["dtype"] == "bfloat16"
    assert [r.error for r in results] == [None] * 4
