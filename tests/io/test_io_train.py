"""When2Call train files: SFT and preference records."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import ItemKind, Label
from w2c_tui.io.importers import detect_kind, read_bundle

SFT = "when2call_train_sft_tiny.jsonl"
PREF = "when2call_train_pref_tiny.jsonl"
WriteLines = Callable[..., Path]


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def test_sft_file(fixtures: Path, tool: dict[str, Any]) -> None:
    assert detect_kind(fixtures / SFT) == "when2call_sft"
    bundle = read_bundle(fixtures / SFT)
    assert bundle.kind == "when2call_sft"
    assert bundle.default_dataset == "when2call_train_sft_tiny"
    assert len(bundle.items) == 2
    assert bundle.notes == ("skipped 1 exact duplicate record(s)",)
    call, refusal = bundle.items
    assert call.kind is ItemKind.SFT and call.line == 1 and refusal.line == 2
    assert call.uuid.startswith("sft-") and len(call.uuid) == 24
    assert call.question == "Weather in Oslo?"
    assert call.answers[0][0] == "assistant" and "<TOOLCALL>" in call.answers[0][1]
    assert call.gold is Label.TOOL_CALL
    assert refusal.gold is None
    assert call.tools == (json.dumps(tool),)
    assert refusal.tools == ()


def test_sft_uuid_is_stable_and_own_uuid_wins(fixtures: Path, write_lines: WriteLines) -> None:
    first = read_bundle(fixtures / SFT).items[0].uuid
    rows = _rows(fixtures / SFT)
    assert read_bundle(write_lines(rows[:1], "again.jsonl"), "when2call_sft").items[0].uuid == first
    rows[1]["uuid"] = "mine"
    bundle = read_bundle(write_lines(rows[:2], "own.jsonl"), "when2call_sft")
    assert bundle.items[1].uuid == "mine"


def test_sft_content_that_is_json_is_kept_as_text(write_lines: WriteLines) -> None:
    row = {
        "tools": [],
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": {"name": "x", "arguments": {}}},
        ],
    }
    bundle = read_bundle(write_lines([row], "sft.jsonl"), "when2call_sft")
    (item,) = bundle.items
    assert item.question == "Hi"
    assert item.answers == (("assistant", '{"name": "x", "arguments": {}}'),)
    assert item.extra["messages"] == row["messages"]
    assert any("JSON values" in n for n in bundle.notes)


def test_pref_file(fixtures: Path, tool: dict[str, Any]) -> None:
    assert detect_kind(fixtures / PREF) == "when2call_pref"
    bundle = read_bundle(fixtures / PREF)
    assert bundle.kind == "when2call_pref"
    first, second = bundle.items
    assert first.kind is ItemKind.PREF and first.gold is None
    assert first.uuid.startswith("pref-")
    assert first.question == "Weather?"
    assert first.answers[0] == ("chosen", "Which city?")
    assert first.answers[1][0] == "rejected" and "<TOOLCALL>" in first.answers[1][1]
    assert first.extra == {"chosen_reward": 1.0, "rejected_reward": 0.0}
    assert second.tools == (json.dumps(tool),)


@pytest.mark.parametrize(
    ("name", "change", "field"),
    [
        (SFT, lambda r: r.pop("messages"), "messages"),
        (SFT, lambda r: r.pop("tools"), "tools"),
        (SFT, lambda r: r["tools"].append("not json"), "tools[0]"),
        (SFT, lambda r: r["messages"].pop(), "messages"),
        (SFT, lambda r: r["messages"][0].pop("role"), "messages[0].role"),
        (SFT, lambda r: r["messages"][0].__setitem__("content", None), "messages[0].content"),
        (SFT, lambda r: r.__setitem__("uuid", 5), "uuid"),
        (PREF, lambda r: r.pop("chosen_response"), "chosen_response"),
        (PREF, lambda r: r["rejected_response"].pop("content"), "rejected_response.content"),
        (PREF, lambda r: r.__setitem__("chosen_reward", "high"), "chosen_reward"),
    ],
)
def test_bad_train_lines(
    fixtures: Path,
    write_lines: WriteLines,
    name: str,
    change: Callable[[dict[str, Any]], None],
    field: str,
) -> None:
    rows = _rows(fixtures / name)[:2]
    change(rows[1])
    kind = "when2call_sft" if name == SFT else "when2call_pref"
    with pytest.raises(InputError) as caught:
        read_bundle(write_lines(rows, name), kind)
    assert (caught.value.line, caught.value.field) == (2, field)


def test_a_repeated_own_uuid_on_a_different_record(fixtures: Path, write_lines: WriteLines) -> None:
    rows = _rows(fixtures / SFT)[:2]
    for row in rows:
        row["uuid"] = "same"
    with pytest.raises(InputError, match="duplicate uuid 'same'"):
        read_bundle(write_lines(rows, "sft.jsonl"), "when2call_sft")
