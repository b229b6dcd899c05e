"""lm-evaluation-harness sample logs: argmax rules, option order, names and bad lines."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle
from w2c_tui.io.importers import read_bundle
from w2c_tui.io.importers.lm_eval_samples import argmax, task_name
from w2c_tui.io.options import ReadOptions

SAMPLES = "lm_eval/tiny-model/samples_when2call-qwen2_5_2026-01-02T03-04-05.678901.jsonl"
WriteLines = Callable[..., Path]


@pytest.fixture
def bundle(fixtures: Path) -> ImportBundle:
    return read_bundle(fixtures / SAMPLES)


def _line(path: Path, number: int) -> dict[str, Any]:
    row: dict[str, Any] = json.loads(path.read_text(encoding="utf-8").splitlines()[number - 1])
    return row


def test_rater_and_target_model(bundle: ImportBundle) -> None:
    assert bundle.kind == "lm_eval_samples"
    assert bundle.default_dataset is None
    assert not bundle.items and not bundle.responses
    assert [v.uuid for v in bundle.verdicts] == ["lm-1", "lm-2", "lm-3"]
    rater = bundle.verdicts[0].rater
    assert rater.kind is RaterKind.MCQ_LOGPROB
    assert rater.name == "lm-eval:when2call-qwen2_5"
    assert rater.config == {"source": "lm-evaluation-harness", "task": "when2call-qwen2_5"}
    assert {v.target_model for v in bundle.verdicts} == {"tiny-model"}
    assert any("taken from the folder name" in n for n in bundle.notes)
    assert all(v.status is VerdictStatus.OK and v.response_index is None for v in bundle.verdicts)


def test_options_name_the_model_and_the_scorer(fixtures: Path) -> None:
    options = ReadOptions(target_model="acme-7b", scorer="my-scorer")
    bundle = read_bundle(fixtures / SAMPLES, options=options)
    assert {v.target_model for v in bundle.verdicts} == {"acme-7b"}
    assert {v.rater.name for v in bundle.verdicts} == {"my-scorer"}
    assert not any("folder name" in n for n in bundle.notes)


def test_ties_go_to_the_lowest_index_and_lengths_are_characters(bundle: ImportBundle) -> None:
    tie = bundle.verdicts[0]
    # lls -5, -5, -9.5, -9: raw tie between direct and tool_call.
    assert tie.label is Label.DIRECT
    assert tie.scores["pred_raw"] == "direct"
    # "üüüü" is 4 characters (8 bytes): per character, cannot_answer (-9/8) is best.
    assert tie.scores["choice_lengths"] == [4, 4, 8, 8]
    assert tie.scores["pred_norm"] == "cannot_answer"
    assert tie.scores["loglikelihoods"] == [-5.0, -5.0, -9.5, -9.0]
    assert tie.scores["is_greedy"] == [False, True, False, False]
    assert tie.scores["acc"] == 0.0 and tie.scores["acc_norm"] == 0.0


def test_raw_and_normalised_argmax_can_differ(bundle: ImportBundle) -> None:
    worked = bundle.verdicts[1]
    assert worked.label is Label.TOOL_CALL
    assert worked.scores["pred_raw"] == "tool_call"
    assert worked.scores["pred_norm"] == "direct"
    assert worked.scores["choice_lengths"] == [160, 90, 110, 150]


def test_option_order_follows_the_answers_keys(bundle: ImportBundle) -> None:
    reordered = bundle.verdicts[2]
    # File order cannot_answer, direct, tool_call, request_for_info; lls -1, -2, -3, -4.
    assert reordered.label is Label.CANNOT_ANSWER
    assert reordered.scores["loglikelihoods"] == [-2.0, -3.0, -4.0, -1.0]
    assert reordered.scores["choice_lengths"] == [3, 4, 5, 2]
    assert reordered.scores["pred_norm"] == "cannot_answer"


def test_a_disagreeing_acc_is_a_note_not_an_error(bundle: ImportBundle) -> None:
    notes = [n for n in bundle.notes if "disagree" in n]
    assert len(notes) == 1
    assert notes[0].startswith("1 acc/acc_norm value(s)") and "line 3" in notes[0]


@pytest.mark.parametrize(
    ("values", "expected"),
    [([1.0, 2.0, 2.0, 0.0], 1), ([-3.0, -3.0, -3.0, -3.0], 0), ([-9.0, -1.0, -5.0, -1.0], 1)],
)
def test_argmax_first_index_wins(values: list[float], expected: int) -> None:
    assert argmax(values) == expected


@pytest.mark.parametrize(
    ("name", "task"),
    [
        ("samples_when2call_2025-01-01T00-00-00.123456.jsonl", "when2call"),
        ("samples_when2call-llama3_2_2025-01-01T00-00-00.123456.jsonl", "when2call-llama3_2"),
        ("mine.jsonl", "mine"),
    ],
)
def test_task_name(name: str, task: str) -> None:
    assert task_name(Path(name)) == task


def _break(row: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    change(row)
    return row


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            lambda r: r["filtered_resps"][2].__setitem__(0, "abc"),
            "filtered_resps[2]",
            "not a number",
        ),
        (lambda r: r["filtered_resps"][1].__setitem__(0, None), "filtered_resps[1]", "got null"),
        (
            lambda r: r["filtered_resps"][0].__setitem__(1, "maybe"),
            "filtered_resps[0]",
            "is_greedy",
        ),
        (lambda r: r["filtered_resps"].pop(), "filtered_resps", "expected 4 responses, got 3"),
        (lambda r: r["filtered_resps"].__setitem__(3, ["-1"]), "filtered_resps[3]", "pair"),
        (lambda r: r.pop("filtered_resps"), "filtered_resps", "missing required field"),
        (lambda r: r.pop("doc"), "doc", "missing required field"),
        (lambda r: r["doc"].pop("uuid"), "doc.uuid", "missing required field"),
        (lambda r: r["doc"]["choices"].pop(), "doc.choices", "expected 4 choices"),
        (lambda r: r.__setitem__("target", "7"), "target", "gold option index"),
        (lambda r: r.__setitem__("acc", "yes"), "acc", "expected a number or null"),
        (lambda r: r["doc"]["answers"].pop("direct"), "doc.answers", "expected exactly"),
        (
            lambda r: r["filtered_resps"][1].__setitem__(0, "Infinity"),
            "filtered_resps[1]",
            "infinite",
        ),
        (lambda r: r["filtered_resps"][2].__setitem__(0, "-inf"), "filtered_resps[2]", "infinite"),
        (lambda r: r["filtered_resps"][0].__setitem__(0, "1e400"), "filtered_resps[0]", "infinite"),
        (lambda r: r["filtered_resps"][3].__setitem__(0, "2.5"), "filtered_resps[3]", "positive"),
        (lambda r: r["filtered_resps"][3].__setitem__(0, 0.25), "filtered_resps[3]", "positive"),
    ],
)
def test_bad_sample_lines(
    fixtures: Path,
    write_lines: WriteLines,
    change: Callable[[dict[str, Any]], None],
    field: str,
    message: str,
) -> None:
    good = _line(fixtures / SAMPLES, 1)
    bad = _break(_line(fixtures / SAMPLES, 2), change)
    path = write_lines([good, bad], "m/samples_when2call_2026-01-01T00-00-00.000000.jsonl")
    with pytest.raises(InputError) as caught:
        read_bundle(path, "lm_eval_samples")
    assert caught.value.line == 2
    assert caught.value.field == field
    assert message in caught.value.message


def test_infinity_as_a_json_number_is_refused_too(fixtures: Path, write_lines: WriteLines) -> None:
    """Python's json reads the bare tokens Infinity and 1e400 as floats: refused by line."""
    good = json.dumps(_line(fixtures / SAMPLES, 1))
    row = _line(fixtures / SAMPLES, 2)
    row["filtered_resps"][1][0] = 12345.0
    for token in ("Infinity", "1e400"):
        bad = json.dumps(row).replace("12345.0", token)
        path = write_lines([good, bad], "m/samples_when2call_2026-01-01T00-00-00.000000.jsonl")
        with pytest.raises(InputError) as caught:
            read_bundle(path, "lm_eval_samples")
        assert (caught.value.line, caught.value.field) == (2, "filtered_resps[1]")
        assert "infinite" in caught.value.message
