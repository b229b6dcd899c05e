"""When2Call test items: valid variants and every way a line can be wrong."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import ItemKind, Label
from w2c_tui.domain.records import ImportBundle
from w2c_tui.io.importers import read_bundle
from w2c_tui.io.importers.base import Source
from w2c_tui.io.importers.when2call_test import read as read_source
from w2c_tui.io.options import ReadOptions

WriteLines = Callable[..., Path]
Item = Callable[..., dict[str, Any]]
CANONICAL = ["direct", "tool_call", "request_for_info", "cannot_answer"]


def read(path: Path) -> ImportBundle:
    return read_source(Source(path), ReadOptions())


def test_a_valid_file(write_lines: WriteLines, item: Item, tool: dict[str, Any]) -> None:
    path = write_lines([item("a"), item("b", correct_answer="cannot_answer")])
    bundle = read_bundle(path)
    assert bundle.kind == "when2call_test"
    assert bundle.default_dataset == "items"
    assert bundle.path == str(path)
    assert len(bundle.sha256) == 64
    assert [i.uuid for i in bundle.items] == ["a", "b"]
    assert [i.line for i in bundle.items] == [1, 2]
    first = bundle.items[0]
    assert first.kind is ItemKind.TEST
    assert first.gold is Label.TOOL_CALL
    assert [name for name, _ in first.answers] == CANONICAL
    assert first.tools == (json.dumps(tool),)
    assert first.source == "test" and first.source_id == "t-1"
    assert first.held_out_param is None and first.orig_question is None
    assert bundle.items[1].gold is Label.CANNOT_ANSWER


def test_variants_are_accepted(write_lines: WriteLines, item: Item, tool: dict[str, Any]) -> None:
    answers = {
        "cannot_answer": "No.",
        "direct_answer": "Sunny.",
        "request_for_info": "Which city?",
        "tool_call": "{}",
    }
    row = item(
        answers=answers,
        tools=[tool],
        target_tool=tool,
        orig_tools=[json.dumps(tool)],
        held_out_param="city",
        orig_question="Weather?",
        custom_field={"x": 1},
    )
    (record,) = read(write_lines([row])).items
    assert [name for name, _ in record.answers] == [
        "cannot_answer",
        "direct",
        "request_for_info",
        "tool_call",
    ]
    assert record.tools == (json.dumps(tool),)
    assert record.target_tool == json.dumps(tool)
    assert record.held_out_param == "city" and record.orig_question == "Weather?"
    assert record.extra == {"custom_field": {"x": 1}, "orig_tools": [json.dumps(tool)]}


def test_direct_answer_as_gold_means_direct(write_lines: WriteLines, item: Item) -> None:
    (record,) = read(write_lines([item(correct_answer="direct_answer")])).items
    assert record.gold is Label.DIRECT


def test_tool_strings_are_kept_byte_for_byte(write_lines: WriteLines, item: Item) -> None:
    odd = '{"name":"x",  "description":"d","parameters":{}}'
    (record,) = read(write_lines([item(tools=[odd])])).items
    assert record.tools == (odd,)


@pytest.mark.parametrize("field", ["uuid", "question", "correct_answer", "answers", "tools"])
def test_each_required_field(write_lines: WriteLines, field: str, item: Item) -> None:
    row = item()
    del row[field]
    with pytest.raises(InputError) as caught:
        read(write_lines([item("ok"), row]))
    assert caught.value.field == field
    assert caught.value.line == 2
    assert "missing required field" in caught.value.message


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"uuid": 7}, "uuid", "expected a string, got number"),
        ({"uuid": " "}, "uuid", "must not be empty"),
        ({"question": None}, "question", "expected a string, got null"),
        ({"correct_answer": 2}, "correct_answer", "expected a string"),
        ({"answers": ["a", "b"]}, "answers", "expected an object, got array"),
        ({"tools": "[]"}, "tools", "expected an array, got string"),
        ({"tools": [3]}, "tools[0]", "expected a JSON string or an object"),
        ({"source": 3}, "source", "expected a string or null"),
        ({"source_id": ["x"]}, "source_id", "expected a string or null"),
        ({"held_out_param": True}, "held_out_param", "expected a string or null"),
        ({"orig_question": {}}, "orig_question", "expected a string or null"),
        ({"target_tool": 5}, "target_tool", "expected a JSON string or an object"),
        ({"target_tool": "nope"}, "target_tool", "not a JSON object"),
        ({"orig_tools": "x"}, "orig_tools", "expected an array or null"),
    ],
)
def test_wrongly_typed_fields(
    write_lines: WriteLines, changes: dict[str, Any], field: str, message: str, item: Item
) -> None:
    with pytest.raises(InputError) as caught:
        read(write_lines([item(**changes)]))
    assert caught.value.field == field
    assert message in caught.value.message


def test_unknown_label(write_lines: WriteLines, item: Item) -> None:
    with pytest.raises(InputError) as caught:
        read(write_lines([item(correct_answer="maybe")]))
    assert caught.value.field == "correct_answer"
    assert caught.value.message == (
        "unknown label 'maybe' (expected one of direct, tool_call, request_for_info, cannot_answer)"
    )


def test_duplicate_uuid_names_both_lines(write_lines: WriteLines, item: Item) -> None:
    path = write_lines([item("a"), item("b"), "", item("a")])
    with pytest.raises(InputError) as caught:
        read(path)
    assert caught.value.line == 4
    assert caught.value.field == "uuid"
    assert "duplicate uuid 'a' (first on line 1)" in caught.value.message


@pytest.mark.parametrize("bad", ["not json", "[1, 2]", '"a string"'])
def test_a_tool_that_is_not_a_json_object(
    write_lines: WriteLines, bad: str, item: Item, tool: dict[str, Any]
) -> None:
    with pytest.raises(InputError) as caught:
        read(write_lines([item(tools=[json.dumps(tool), bad])]))
    assert caught.value.field == "tools[1]"
    assert caught.value.message.startswith("not a JSON object")


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        (
            {"direct": "a", "tool_call": "b", "request_for_info": "c"},
            "missing key(s) 'cannot_answer'",
        ),
        (
            {
                "direct": "a",
                "tool_call": "b",
                "request_for_info": "c",
                "cannot_answer": "d",
                "x": "e",
            },
            "unexpected key 'x'",
        ),
        (
            {"direct": "a", "direct_answer": "a", "tool_call": "b", "request_for_info": "c"},
            "repeats the option 'direct'",
        ),
    ],
)
def test_answers_keys(
    write_lines: WriteLines, answers: dict[str, str], message: str, item: Item
) -> None:
    with pytest.raises(InputError) as caught:
        read(write_lines([item(answers=answers)]))
    assert caught.value.field == "answers"
    assert message in caught.value.message


def test_an_answer_that_is_not_text(write_lines: WriteLines, item: Item) -> None:
    answers = dict(item()["answers"], tool_call={"name": "x"})
    with pytest.raises(InputError) as caught:
        read(write_lines([item(answers=answers)]))
    assert caught.value.field == "answers.tool_call"


def test_malformed_json_on_line_3(write_lines: WriteLines, item: Item) -> None:
    path = write_lines([item("a"), item("b"), '{"uuid": "c", "question": '])
    with pytest.raises(InputError) as caught:
        read_bundle(path, "when2call_test")
    assert caught.value.line == 3
    assert "3" in str(caught.value)
    assert "not valid JSON" in caught.value.message


def test_a_line_that_is_not_an_object(write_lines: WriteLines, item: Item) -> None:
    with pytest.raises(InputError, match="expected a JSON object"):
        read_bundle(write_lines([item("a"), "[1, 2, 3]"]), "when2call_test")


def test_a_bad_last_line_fails_the_whole_file(write_lines: WriteLines, item: Item) -> None:
    rows: list[Any] = [item(f"u{n}") for n in range(50)]
    rows.append(item("last", correct_answer="none"))
    with pytest.raises(InputError) as caught:
        read_bundle(write_lines(rows))
    assert caught.value.line == 51


def test_progress_on_a_5000_line_file(write_lines: WriteLines, item: Item) -> None:
    path = write_lines([item(f"u{n}") for n in range(5000)])
    calls: list[tuple[int, int]] = []
    bundle = read_bundle(path, progress=lambda done, total: calls.append((done, total)))
    assert len(bundle.items) == 5000
    assert len(calls) >= 5
    size = path.stat().st_size
    assert calls[-1] == (size, size)
    assert all(total == size for _, total in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
