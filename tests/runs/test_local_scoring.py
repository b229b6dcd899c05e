"""Log-prob MCQ on tiny local models: the KV-cache scorer against a naive lm-eval reference,
several items per pass, and prefix reuse across items."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from scoring_reference import (
    TEMPLATES,
    assert_matches_reference,
    edge_tasks,
    loaded,
    real_whitespace_tasks,
    reference,
    run_mcq,
    sample_tasks,
)
from tiny_models import (
    DEMO,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.local import mcq
from w2c_tui.runs.local.encoding import encode_items, split_whitespace
from w2c_tui.runs.local.forward_args import with_cache
from w2c_tui.runs.local.loading import load
from w2c_tui.runs.local.mcq import McqRunner
from w2c_tui.runs.local.prefix import worth_it
from w2c_tui.runs.local.scoring import score_shared
from w2c_tui.runs.prompts import render


@pytest.mark.parametrize("arch", ["gpt2", "qwen2"])
@pytest.mark.parametrize("template", TEMPLATES)
def test_kv_cache_scores_equal_the_naive_reference(arch: str, template: str) -> None:
    worst = assert_matches_reference(tiny_model_dir(arch), sample_tasks(), template, bos=False)
    assert worst < 1e-3


@pytest.mark.parametrize("arch", ["gpt2", "qwen2"])
def test_bos_is_prepended_to_the_context(arch: str) -> None:
    tasks = sample_tasks()[:8]
    assert_matches_reference(tiny_model_dir(arch), tasks, "when2call-qwen2_5", bos=True)
    with_bos = run_mcq(tiny_model_dir(arch), tasks[:2], "when2call-qwen2_5", bos=True)
    without = run_mcq(tiny_model_dir(arch), tasks[:2], "when2call-qwen2_5", bos=False)
    assert with_bos[0].scores["bos"] is True and without[0].scores["bos"] is False
    assert with_bos[0].scores["loglikelihoods"] != without[0].scores["loglikelihoods"]


def test_real_items_ending_in_whitespace() -> None:
    tasks = real_whitespace_tasks()
    assert_matches_reference(tiny_model_dir("gpt2"), tasks, "when2call-default", bos=False)


@pytest.mark.parametrize("packed", [True, False])
@pytest.mark.parametrize("arch", ["gpt2", "qwen2"])
def test_several_items_per_pass_match_the_reference(arch: str, packed: bool) -> None:
    """Padded context batches, in packed (block mask) and expanded (repeated cache) modes."""
    model, tok = loaded(tiny_model_dir(arch))
    tasks = sample_tasks()[:7]
    pairs = [render("when2call-qwen2_5", t) for t in tasks]
    encoded = encode_items(lambda texts: tok(texts, add_special_tokens=False)["input_ids"], pairs)
    got = score_shared(model, encoded[:4], tok.pad_token_id, packed=packed)
    got += score_shared(model, encoded[4:], tok.pad_token_id, packed=packed)
    for (prompt, choices), scores in zip(pairs, got, strict=True):
        ref = reference(model, tok, prompt, choices, False, 8192)
        for (ll, greedy, n), score in zip(ref, scores, strict=True):
            assert abs(score.ll - ll) <= 1e-4 + 1e-6 * abs(ll)
            assert (score.greedy, score.n_tokens) == (greedy, n)


def test_left_truncation_falls_back_to_one_pass_per_choice() -> None:
    folder = tiny_model_dir("gpt2", positions=256)
    tasks = load_tasks(DEMO)[20:26]
    results = run_mcq(folder, tasks, "when2call-default")
    assert "full" in {r.meta["scoring"] for r in results}
    assert_matches_reference(folder, tasks, "when2call-default", bos=False, max_length=256)


def test_whitespace_moves_into_every_continuation() -> None:
    assert split_whitespace("Q? \n", "A") == ("Q?", " \nA")
    assert split_whitespace("Q?", "A") == ("Q?", "A")
    _, tok = loaded(tiny_model_dir("gpt2"))
    enc = encode_items(
        lambda texts: tok(texts, add_special_tokens=False)["input_ids"],
        [("assistant\n", ["Hi", "Yo"])],
        bos_id=7,
    )
    ctx = tok.encode("assistant", add_special_tokens=False)
    assert enc[0].ctx == [7, *ctx]
    assert enc[0].conts[0] == tok.encode("assistant\nHi", add_special_tokens=False)[len(ctx) :]


def test_boundary_merges_keep_the_context_encoding() -> None:
    """lm-eval scores tok(context) + tok(context+choice)[len(tok(context)):], even when the
    whole encoding merges tokens across the boundary."""
    split = [t for t in edge_tasks() if t.uuid == "edge-split"]
    result = run_mcq(tiny_model_dir("gpt2"), split, "when2call-default")[0]
    assert result.meta["boundary_merges"] >= 1
    assert_matches_reference(tiny_model_dir("gpt2"), split, "when2call-default", bos=False)


def runner_results(folder: Path, tasks: Sequence[Task], template: str, **kw: Any) -> Any:
    runner = McqRunner(load(str(folder), "cpu", "float32"), template, False, 4, **kw)
    results: list[TaskResult] = []
    runner.run(tasks, results.append, lambda: False)
    return runner, {r.task.uuid: r for r in results}


def test_prefix_reuse_across_items_keeps_the_scores() -> None:
    """Items sharing the tool block (and an exact duplicate prompt) start from the cache of the
    item before them in prompt order."""
    base = load_tasks(DEMO)[10:16]
    twins = [
        Task(100 + i, f"twin-{i}", t.question + " Please.", t.tools, t.answers, t.gold)
        for i, t in enumerate(base[:3])
    ]
    dup = [Task(200, "dup", base[0].question, base[0].tools, base[0].answers, None)]
    tasks = base + twins + dup
    folder = tiny_model_dir("qwen2")
    runner, results = runner_results(folder, tasks, "when2call-default")
    assert runner.prefix is not None and runner.prefix.hits >= len(twins + dup)
    assert results["dup"].meta["prefix_reused"] > 0
    _, alone = runner_results(folder, tasks, "when2call-default", items_per_pass=2)
    assert all(r.meta["prefix_reused"] == 0 for r in alone.values())
    for uuid, result in results.items():
        for a, b in zip(
            result.scores["loglikelihoods"], alone[uuid].scores["loglikelihoods"], strict=True
        ):
            assert abs(a - b) <= 1e-4 + 1e-6 * abs(b)
    assert_matches_reference(folder, twins + dup, "when2call-default", bos=False)


def test_out_of_memory_halves_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    real = mcq.score_shared
    sizes: list[int] = []

    def tight(model: Any, items: Sequence[Any], pad_id: int) -> Any:
        sizes.append(len(items))
        if len(items) > 1:
            raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(model, items, pad_id)

    monkeypatch.setattr(mcq, "score_shared", tight)
    tasks = load_tasks(DEMO)[:4]
    _, results = runner_results(
        tiny_model_dir("gpt2"), tasks, "when2call-default", items_per_pass=4
    )
    assert sizes[0] == 4 and all(r.error is None for r in results.values())
    assert len(results) == 4


def test_prefix_reuse_only_when_it_pays() -> None:
    assert not worth_it(100, 1000, 128)  # a shared system prompt: recompute from scratch
    assert worth_it(900, 1000, 128)  # a shared tool block
    assert worth_it(100, 1000, 4096)  # a real model: projections dominate
    assert not worth_it(4, 10, 4096)  # below MIN_SHARED


@pytest.mark.parametrize("arch", ["gpt2", "qwen2"])
def test_the_cache_goes_by_the_name_the_model_takes(arch: str) -> None:
    """transformers 5.24 deprecates `past_key_values` (removed in 5.40): no deprecation
    warning on the scoring path, and an older forward still gets `past_key_values`."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        results = run_mcq(tiny_model_dir(arch), sample_tasks()[:4], "when2call-default")
    assert results and not [r.error for r in results if r.error]

    class Older:
        def forward(self, input_ids: Any = None, past_key_values: Any = None) -> None: ...

    class Newer:
        def forward(self, input_ids: Any = None, cache: Any = None) -> None: ...

    assert with_cache(Older(), "kv") == {"past_key_values": "kv"}
    assert with_cache(Newer(), "kv") == {"cache": "kv"}
