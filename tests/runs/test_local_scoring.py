"""Log-prob MCQ on tiny local models: the KV-cache scorer against a naive lm-eval reference."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_models import (
    DEMO,
    judge_path,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Backend, Method, RunConfig, Task, TaskResult
from w2c_tui.runs.local.encoding import encode_items, split_whitespace
from w2c_tui.runs.local.executor import TransformersExecutor
from w2c_tui.runs.local.results import Prepared, mcq_result
from w2c_tui.runs.local.scoring import ChoiceScore
from w2c_tui.runs.prompts import render

TEMPLATES = ("when2call-default", "when2call-qwen2_5")


@cache
def loaded(folder: Path) -> tuple[Any, Any]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(folder).eval()
    return model, AutoTokenizer.from_pretrained(folder)


def reference(
    model: Any, tok: Any, prompt: str, choices: Sequence[str], bos: bool, max_length: int
) -> list[tuple[float, bool, int]]:
    """lm-eval ≤ 0.4.9.1, written out plainly: one forward pass per choice over ctx + cont."""
    import torch

    out = []
    for choice in choices:
        n = len(prompt) - len(prompt.rstrip())
        context, continuation = (prompt[:-n], prompt[-n:] + choice) if n else (prompt, choice)
        whole = tok.encode(context + continuation, add_special_tokens=False)
        ctx = tok.encode(context, add_special_tokens=False)
        cont = whole[len(ctx) :]
        if bos:
            ctx = [tok.bos_token_id, *ctx]
        inp = (ctx + cont)[-(max_length + 1) :][:-1]
        with torch.inference_mode():
            logits = model(input_ids=torch.tensor([inp])).logits[0]
        logp = torch.log_softmax(logits[-len(cont) :], dim=-1)
        target = torch.tensor(cont)
        ll = float(logp.gather(1, target.unsqueeze(1)).sum())
        out.append((ll, bool((logp.argmax(-1) == target).all()), len(cont)))
    return out


def first_argmax(values: Sequence[float]) -> int:
    best = 0
    for i, value in enumerate(values):
        if value > values[best]:
            best = i
    return best


def run_mcq(
    folder: Path, tasks: Sequence[Task], template: str, bos: bool = False, batch_size: int = 4
) -> list[TaskResult]:
    config = RunConfig.of(
        method=Method.MCQ_LOGPROB,
        backend=Backend.TRANSFORMERS,
        model=str(folder),
        dataset="test",
        template=template,
        bos=bos,
        batch_size=batch_size,
    )
    results: list[TaskResult] = []
    TransformersExecutor(config).run(tasks, results.append, lambda: False)
    return sorted(results, key=lambda r: (r.task.item_id, r.task.uuid))


def edge_tasks() -> list[Task]:
    """Questions ending in whitespace, non-ASCII text, and a word split at the boundary."""
    answers = (
        ("direct", "Le résumé est prêt ✓"),
        ("tool_call", '{"name": "f", "arguments": {}}'),
        ("request_for_info", " Which one?"),
        ("cannot_answer", "\nI can't 🍝."),
    )
    questions = ["Can you help? ", "Tabs and newlines\n\t\n", "Zürich → Genève?", "Tell me the wea"]
    tasks = [
        Task(900 + i, f"edge-{i}", q, (), answers, Label.TOOL_CALL) for i, q in enumerate(questions)
    ]
    split = (
        ("direct", "ther in Paris"),
        ("tool_call", "ther is nice today"),
        ("request_for_info", "ks"),
        ("cannot_answer", "thermometer"),
    )
    tasks.append(Task(950, "edge-split", "Tell me the wea", (), split, Label.TOOL_CALL))
    return tasks


@cache
def sample_tasks() -> tuple[Task, ...]:
    """Demo items (non-ASCII, one question ending in a space) and the edge cases."""
    return tuple(load_tasks(DEMO)[::3] + edge_tasks())


def real_whitespace_tasks() -> list[Task]:
    """Two of the six real items whose question ends in whitespace (skip when absent)."""
    judge = judge_path()
    if judge is None:
        pytest.skip("shared When2Call data not found; set W2C_SHARED_DATA")
    return [t for t in load_tasks(judge) if t.question != t.question.rstrip()][:2]


def assert_matches_reference(
    folder: Path, tasks: Sequence[Task], template: str, bos: bool, max_length: int = 8192
) -> float:
    model, tok = loaded(folder)
    results = run_mcq(folder, tasks, template, bos)
    assert len(results) == len(tasks) and all(r.error is None for r in results)
    by_uuid = {r.task.uuid: r for r in results}
    worst = 0.0
    for task in tasks:
        prompt, choices = render(template, task)
        ref = reference(model, tok, prompt, choices, bos, max_length)
        scores = by_uuid[task.uuid].scores
        for (ll, greedy, n), got, got_greedy, got_n in zip(
            ref, scores["loglikelihoods"], scores["is_greedy"], scores["n_tokens"], strict=True
        ):
            assert abs(got - ll) <= 1e-4 + 1e-6 * abs(ll), (task.uuid, got, ll)
            assert (got_greedy, got_n) == (greedy, n)
            worst = max(worst, abs(got - ll))
        lls = [r[0] for r in ref]
        names = [name for name, _ in task.answers]
        assert scores["pred_raw"] == names[first_argmax(lls)]
        norm = [ll / len(c) for ll, c in zip(lls, choices, strict=True)]
        assert scores["pred_norm"] == names[first_argmax(norm)]
    return worst


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
    from w2c_tui.runs.local.scoring import score_shared

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


def test_non_ascii_choice_lengths_are_python_characters() -> None:
    task = next(t for t in edge_tasks() if t.uuid == "edge-0")
    result = run_mcq(tiny_model_dir("qwen2"), [task], "when2call-default")[0]
    assert result.scores["choice_lengths"] == [len(text) for _, text in task.answers]
    assert result.scores["choice_lengths"][3] == 11  # the emoji is one character


def prepared(choices: list[str]) -> Prepared:
    from w2c_tui.runs.local.encoding import EncodedItem

    names = ("direct", "tool_call", "request_for_info", "cannot_answer")
    task = Task(1, "u", "q", (), tuple(zip(names, choices, strict=True)), None)
    return Prepared(task, "q", choices, EncodedItem([1, 2], [[3]] * 4))


def test_ties_go_to_the_lowest_index() -> None:
    scores = [ChoiceScore(-5.0, False, 1)] * 4
    result = mcq_result(prepared(["a", "b", "c", "d"]), scores, "t", False, "kv_cache")
    assert result.label is Label.DIRECT and result.scores["pred_norm"] == "direct"
    scores = [ChoiceScore(x, False, 1) for x in (-9.0, -2.0, -2.0, -3.0)]
    result = mcq_result(prepared(["a", "b", "c", "d"]), scores, "t", False, "kv_cache")
    assert result.scores["pred_raw"] == "tool_call"


def test_identical_choices_score_identically_and_pick_the_first() -> None:
    same = (
        ("direct", "Sure."),
        ("tool_call", "Sure."),
        ("request_for_info", "Sure."),
        ("cannot_answer", "Sure."),
    )
    task = Task(1, "same", "Help me?", (), same, None)
    result = run_mcq(tiny_model_dir("gpt2"), [task], "when2call-default")[0]
    assert len(set(result.scores["loglikelihoods"])) == 1
    assert result.label is Label.DIRECT


def test_acc_norm_divides_by_character_length_not_bytes() -> None:
    # §2.2 worked example: raw argmax 1, normalised argmax 0.
    choices = ["x" * 160, "x" * 90, "x" * 110, "x" * 150]
    scores = [ChoiceScore(x, False, 1) for x in (-40.0, -30.0, -35.0, -60.0)]
    result = mcq_result(prepared(choices), scores, "t", False, "kv_cache")
    assert (result.scores["pred_raw"], result.scores["pred_norm"]) == ("tool_call", "direct")
    # 5 characters / 10 bytes vs 7 ASCII characters: characters pick option 1, bytes option 0.
    choices = ["ééééé", "abcdefg", "zzzzzzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzzzzzzzz"]
    scores = [ChoiceScore(x, False, 1) for x in (-10.0, -13.0, -100.0, -100.0)]
    result = mcq_result(prepared(choices), scores, "t", False, "kv_cache")
    assert result.scores["pred_norm"] == "tool_call"
    assert result.scores["choice_lengths"] == [5, 7, 20, 20]


def test_a_choice_without_tokens_of_its_own_is_an_item_error() -> None:
    """ "wea" + "t" may encode to fewer tokens than "wea": lm-eval asserts; we report it."""
    _, tok = loaded(tiny_model_dir("gpt2"))
    context = next(
        c
        for c in ("Tell me the wea", "the weather", "weat", "wea", "Weathe", "weath")
        if len(tok.encode(c + "r", add_special_tokens=False))
        <= len(tok.encode(c, add_special_tokens=False))
    )
    answers = (
        ("direct", "r"),
        ("tool_call", "r in Paris"),
        ("request_for_info", " ok"),
        ("cannot_answer", "no"),
    )
    good = Task(2, "good", "Fine?", (), answers, None)
    bad = Task(1, "bad", context, (), answers, None)
    results = run_mcq(tiny_model_dir("gpt2"), [bad, good], "when2call-default")
    errors = {r.task.uuid: r.error for r in results}
    assert errors["good"] is None
    assert errors["bad"] is not None and "direct" in errors["bad"]


def runner_results(folder: Path, tasks: Sequence[Task], template: str, **kw: Any) -> Any:
    from w2c_tui.runs.local.loading import load
    from w2c_tui.runs.local.mcq import McqRunner

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
    from w2c_tui.runs.local import mcq

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
    from w2c_tui.runs.local.prefix import worth_it

    assert not worth_it(100, 1000, 128)  # a shared system prompt: recompute from scratch
    assert worth_it(900, 1000, 128)  # a shared tool block
    assert worth_it(100, 1000, 4096)  # a real model: projections dominate
    assert not worth_it(4, 10, 4096)  # below MIN_SHARED
