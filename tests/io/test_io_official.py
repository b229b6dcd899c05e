"""Outputs of the official LLM-judge scripts: judge verdicts and inference responses."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.io.importers import detect_kind, read_bundle
from w2c_tui.io.options import ReadOptions

JUDGE = "official_judge_tiny-model.jsonl"
INFERENCE = "official_inference_tiny-model.jsonl"
WriteLines = Callable[..., Path]


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def test_judge_file(fixtures: Path) -> None:
    assert detect_kind(fixtures / JUDGE) == "official_judge"
    bundle = read_bundle(fixtures / JUDGE)
    assert bundle.kind == "official_judge"
    assert bundle.default_dataset is None
    assert [r.uuid for r in bundle.responses] == ["oj-1", "oj-2", "oj-3", "oj-4", "oj-5"]
    assert {r.target_model for r in bundle.responses} == {"official_judge_tiny-model"}
    assert bundle.responses[1].text == "It is sunny in Oslo."
    assert [v.response_index for v in bundle.verdicts] == [0, 1, 2, 3, 4]
    assert [v.uuid for v in bundle.verdicts] == [r.uuid for r in bundle.responses]
    rater = bundle.verdicts[0].rater
    assert rater.kind is RaterKind.JUDGE and rater.name == "official-judge"
    assert rater.config == {"source": "when2call official judge", "prompt": "when2call-official"}
    assert [v.label for v in bundle.verdicts] == [
        Label.TOOL_CALL,
        Label.DIRECT,
        None,
        Label.CANNOT_ANSWER,
        None,
    ]
    statuses = [v.status for v in bundle.verdicts]
    assert statuses == [VerdictStatus.OK] * 2 + [VerdictStatus.INVALID] + [VerdictStatus.OK] + [
        VerdictStatus.INVALID
    ]
    assert any("2 judge reply(ies)" in n for n in bundle.notes)


def test_judge_raw_text_is_kept(fixtures: Path) -> None:
    verdicts = read_bundle(fixtures / JUDGE).verdicts
    assert verdicts[0].raw == '{"classification": "tool_call"}'
    assert verdicts[2].raw == '{"classification": "partly_tool_call"}'
    # A reply stored as a JSON string stays as written.
    assert verdicts[3].raw == '{"classification": "cannot_answer"}'
    assert verdicts[4].raw == '{"label": "tool_call"}'


def test_judge_options(fixtures: Path) -> None:
    options = ReadOptions(target_model="acme", judge="gpt-judge")
    bundle = read_bundle(fixtures / JUDGE, options=options)
    assert {r.target_model for r in bundle.responses} == {"acme"}
    assert {v.target_model for v in bundle.verdicts} == {"acme"}
    assert {v.rater.name for v in bundle.verdicts} == {"gpt-judge"}
    assert not any("file name" in n for n in bundle.notes)


@pytest.mark.parametrize(
    ("response", "status", "label"),
    [
        ("not json at all", VerdictStatus.INVALID, None),
        (["tool_call"], VerdictStatus.INVALID, None),
        ({"classification": 3}, VerdictStatus.INVALID, None),
        ({"classification": " request_for_info "}, VerdictStatus.OK, Label.REQUEST_FOR_INFO),
    ],
)
def test_unusable_judge_replies_are_invalid_verdicts(
    fixtures: Path, write_lines: WriteLines, response: Any, status: VerdictStatus, label: Any
) -> None:
    row = _rows(fixtures / JUDGE)[0]
    row["judge_response"] = response
    (verdict,) = read_bundle(write_lines([row], "judged.jsonl"), "official_judge").verdicts
    assert verdict.status is status and verdict.label is label
    assert verdict.raw is not None


@pytest.mark.parametrize(
    ("field", "change", "message"),
    [
        ("judge_response", lambda r: r.pop("judge_response"), "missing required field"),
        ("judge_response", lambda r: r.__setitem__("judge_response", None), "is null"),
        ("model_response", lambda r: r.pop("model_response"), "missing required field"),
        ("model_response", lambda r: r.__setitem__("model_response", None), "expected a string"),
        ("question", lambda r: r.pop("question"), "missing required field"),
        ("question.uuid", lambda r: r["question"].pop("uuid"), "missing required field"),
    ],
)
def test_bad_judge_lines(
    fixtures: Path,
    write_lines: WriteLines,
    field: str,
    change: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    rows = _rows(fixtures / JUDGE)
    change(rows[1])
    path = write_lines(rows, "judged.jsonl")
    with pytest.raises(InputError) as caught:
        read_bundle(path)
    assert caught.value.line == 2
    assert caught.value.field == field
    assert message in caught.value.message


def test_inference_file(fixtures: Path) -> None:
    assert detect_kind(fixtures / INFERENCE) == "official_inference"
    bundle = read_bundle(fixtures / INFERENCE)
    assert bundle.kind == "official_inference"
    assert not bundle.verdicts and not bundle.items
    assert [(r.uuid, r.line) for r in bundle.responses] == [("oi-1", 1), ("oi-2", 2)]
    assert bundle.responses[0].text == "Für welche Stadt?"
    assert {r.target_model for r in bundle.responses} == {"official_inference_tiny-model"}
    bundle = read_bundle(fixtures / INFERENCE, options=ReadOptions(target_model="m"))
    assert {r.target_model for r in bundle.responses} == {"m"}


def test_bad_inference_line(fixtures: Path, write_lines: WriteLines) -> None:
    rows = _rows(fixtures / INFERENCE)
    rows[1]["model_response"] = 3
    with pytest.raises(InputError) as caught:
        read_bundle(write_lines(rows, "inf.jsonl"), "official_inference")
    assert (caught.value.line, caught.value.field) == (2, "model_response")
