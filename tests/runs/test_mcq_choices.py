"""Log-prob MCQ choice by choice: ties, identical choices, Acc-Norm's character lengths, and a
choice without tokens of its own."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from scoring_reference import (
    edge_tasks,
    loaded,
    run_mcq,
)
from tiny_models import (
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Task
from w2c_tui.runs.local.encoding import EncodedItem
from w2c_tui.runs.local.results import Prepared, mcq_result
from w2c_tui.runs.local.scoring import ChoiceScore


def test_non_ascii_choice_lengths_are_python_characters() -> None:
    task = next(t for t in edge_tasks() if t.uuid == "edge-0")
    result = run_mcq(tiny_model_dir("qwen2"), [task], "when2call-default")[0]
    assert result.scores["choice_lengths"] == [len(text) for _, text in task.answers]
    assert result.scores["choice_lengths"][3] == 11  # the emoji is one character


def prepared(choices: list[str]) -> Prepared:
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
