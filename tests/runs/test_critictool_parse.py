"""The reply parser reads a model's output as the reference's format_load does (hand-checked)."""

from __future__ import annotations

from typing import Any

import pytest

from w2c_tui.domain.critictool import Step
from w2c_tui.runs.critictool.parse import parse_reply

CASES: list[tuple[str, str, Any, str, str, Any, str | None]] = [
    # (case, raw reply, error, thought, name, args, parsed as)
    (
        "json that is also a python literal",
        '{"error": "tool_select_error", "thought": "t", "name": "N", "args": {"a": 1}}',
        "tool_select_error",
        "t",
        "N",
        {"a": 1},
        "python",
    ),
    (
        "json true: only json parses",
        '{"name": "N", "args": {"f": true}}',
        "",
        "",
        "N",
        {"f": True},
        "json",
    ),
    (
        "single quotes and true: json after requoting",
        "{'name': 'N', 'args': {'f': true}}",
        "",
        "",
        "N",
        {"f": True},
        "json_requoted",
    ),
    (
        "requoting breaks an apostrophe",
        "{'name': \"it's\", 'args': {'f': true}}",
        "",
        "",
        "",
        "",
        None,
    ),
    (
        "python literal: None, True, tuple",
        "{'name': 'N', 'args': {'x': None, 'y': True, 'z': (1, 2)}}",
        "",
        "",
        "N",
        {"x": None, "y": True, "z": (1, 2)},
        "python",
    ),
    (
        "a ```json fence after prose",
        'I will retry.\n```json\n{"name": "N", "args": {}}\n```\nDone.',
        "",
        "",
        "N",
        {},
        "python",
    ),
    ("text around the braces", 'Call: {"name": "N", "args": {}} now', "", "", "N", {}, "python"),
    ("no braces at all", "I cannot help with that.", "", "", "", "", None),
    ("a null name reads None", '{"name": null, "args": {}}', "", "", "None", {}, "json"),
    (
        "name and thought stringified, args kept",
        '{"name": 5, "thought": ["a"], "args": "x"}',
        "",
        "['a']",
        "5",
        "x",
        "python",
    ),
    ("a set parses, fields do not", "{1, 2}", "", "", "", "", "python"),
    (
        "two objects make a tuple",
        '{"name": "A", "args": {}}, {"name": "B"}',
        "",
        "",
        "",
        "",
        "python",
    ),
    (
        "python escapes win over json's",
        '{"name": "N", "args": {"s": "a\\/b"}}',
        "",
        "",
        "N",
        {"s": "a\\/b"},
        "python",
    ),
    (
        "error kept as parsed",
        '{"error": {"k": 1}, "name": "N", "args": []}',
        {"k": 1},
        "",
        "N",
        [],
        "python",
    ),
    ("missing args", '{"name": "N"}', "", "", "N", "", "python"),
    (
        "a brace inside a string after the object",
        '{"name": "N", "args": {}} trailing }',
        "",
        "",
        "",
        "",
        None,
    ),
    ("an empty fence", "```json\n```", "", "", "", "", None),
    (
        "CJK content",
        '{"name": "FinishAction", "args": "无法获取"}',
        "",
        "",
        "FinishAction",
        "无法获取",
        "python",
    ),
]


@pytest.mark.parametrize(
    ("raw", "error", "thought", "name", "args", "parsed_as"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_reply_fields(
    raw: str, error: Any, thought: str, name: str, args: Any, parsed_as: str | None
) -> None:
    reply = parse_reply(raw)
    assert (reply.error, reply.thought, reply.name, reply.args) == (error, thought, name, args)
    assert type(reply.args) is type(args)
    assert reply.parsed_as == parsed_as


def test_is_call_compares_python_values() -> None:
    step = Step("Calc.add", {"a": 1, "b": 2.0})
    assert parse_reply('{"name": "Calc.add", "args": {"b": 2, "a": 1}}').is_call(step)
    assert parse_reply("{'name': 'Calc.add', 'args': {'a': True, 'b': 2}}").is_call(step)
    assert not parse_reply('{"name": "Calc.add", "args": {"a": 1}}').is_call(step)
    assert not parse_reply('{"name": "Calc.sub", "args": {"a": 1, "b": 2}}').is_call(step)
