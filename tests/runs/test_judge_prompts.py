"""Judge prompt files, versions, rendering and strict parsing; the MCQ-index prompt and parser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import RunStartError
from w2c_tui.runs.judge import (
    DEFAULT_JUDGE_PROMPT,
    JUDGE_LABELS,
    JudgePrompt,
    judge_prompt_version,
    judge_response_format,
    load_judge_prompt,
    parse_judge_reply,
    render_judge_prompt,
)
from w2c_tui.runs.mcq_index import (
    mcq_index_prompt_version,
    parse_mcq_index,
    render_mcq_index_messages,
)


@pytest.mark.parametrize(
    ("reply", "label", "fenced"),
    [
        ('{"classification": "tool_call"}', Label.TOOL_CALL, False),
        ('  {"classification": "request_for_info"}\n', Label.REQUEST_FOR_INFO, False),
        ('{"classification": "cannot_answer", "reason": "no tool"}', Label.CANNOT_ANSWER, False),
        ('{"classification": "direct"}', Label.DIRECT, False),
        ('{"classification": "direct_answer"}', Label.DIRECT, False),
        ('{"classification": " tool_call "}', Label.TOOL_CALL, False),
        ('```json\n{"classification": "tool_call"}\n```', Label.TOOL_CALL, True),
        ('```\n{"classification": "cannot_answer"}\n```', Label.CANNOT_ANSWER, True),
    ],
)
def test_valid_replies_are_read(reply: str, label: Label, fenced: bool) -> None:
    reading = parse_judge_reply(reply)
    assert (reading.label, reading.fenced, reading.problem) == (label, fenced, None)


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("tool_call", "not valid JSON"),
        ('The model made a tool call: {"classification": "tool_call"}', "not valid JSON"),
        ("I would say it is cannot_answer.", "not valid JSON"),
        ('{"classification": "Tool_Call"}', "unknown classification 'Tool_Call'"),
        ('{"classification": "unsure"}', "unknown classification 'unsure'"),
        ('{"classification": 2}', "no string 'classification'"),
        ('{"label": "direct"}', "no string 'classification'"),
        ('["tool_call"]', "not a JSON object"),
        ("", "not valid JSON"),
        ('```json\n{"classification": "tool_call"}\n``` and more', "not valid JSON"),
    ],
)
def test_anything_else_is_unreadable_and_never_guessed(reply: str, problem: str) -> None:
    reading = parse_judge_reply(reply)
    assert reading.label is None
    assert reading.problem == problem


def test_packaged_prompt_has_the_official_structure() -> None:
    prompt = load_judge_prompt(DEFAULT_JUDGE_PROMPT)
    text = prompt.text
    for label in ("direct", "tool_call", "request_for_info", "cannot_answer"):
        assert re.search(rf"^\d\. {label}: ", text, re.MULTILINE)
    for block in ("AVAILABLE_TOOLS", "USER_QUESTION", "AI_MODEL_RESPONSE"):
        assert f"<{block}>" in text and f"</{block}>" in text
    assert "do not judge" in text and '{"classification":' in text
    assert [m.group(0) for m in re.finditer(r"\{(tools|question|response)\}", text)] == [
        "{tools}",
        "{question}",
        "{response}",
    ]


def test_version_is_name_and_text_hash(tmp_path: Path) -> None:
    version = judge_prompt_version(DEFAULT_JUDGE_PROMPT)
    assert re.fullmatch(r"when2call-judge-v1@[0-9a-f]{12}", version)
    assert version == load_judge_prompt(DEFAULT_JUDGE_PROMPT).version
    mine = tmp_path / "strict-judge.txt"
    mine.write_text("Classify.\n{response}\n", encoding="utf-8")
    first = judge_prompt_version(str(mine))
    mine.write_text("Classify!\n{response}\n", encoding="utf-8")
    second = judge_prompt_version(str(mine))
    assert first.startswith("strict-judge@") and second.startswith("strict-judge@")
    assert first != second


def test_missing_or_unusable_prompt_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RunStartError, match=r"not found.*when2call-judge-v1"):
        load_judge_prompt(str(tmp_path / "nope.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_text("Classify {question} with {tools}", encoding="utf-8")
    with pytest.raises(RunStartError, match=r"no \{response\} placeholder"):
        load_judge_prompt(str(bad))


def test_render_fills_each_placeholder_once_and_leaves_other_braces() -> None:
    prompt = JudgePrompt("t", 'T={tools}\nQ={question}\nR={response}\n{"classification": "x"}')
    tools = ('{"name": "météo", "parameters": {"type": "dict"}}', "not json")
    text = render_judge_prompt(prompt, "ask {response}", tools, "said {question}")
    assert text == (
        'T=[{"name": "météo", "parameters": {"type": "dict"}}, "not json"]\n'
        "Q=ask {response}\nR=said {question}\n"
        '{"classification": "x"}'
    )


def test_structured_output_schema_allows_exactly_the_four_labels() -> None:
    fmt = judge_response_format()
    schema = fmt["json_schema"]["schema"]
    assert fmt["type"] == "json_schema"
    assert schema["properties"]["classification"]["enum"] == list(JUDGE_LABELS)
    assert JUDGE_LABELS == ("direct", "tool_call", "request_for_info", "cannot_answer")
    assert schema["required"] == ["classification"]


@pytest.mark.parametrize(
    ("reply", "index"),
    [
        ("2", 2),
        (" 3\n", 3),
        ("0", 0),
        ("I pick 1.", 1),
        ("Option 2, not 3", 2),
        ("[3]", 3),
        ("12", None),
        ("4", None),
        ("none of them", None),
        ("", None),
    ],
)
def test_mcq_index_parse(reply: str, index: int | None) -> None:
    assert parse_mcq_index(reply) == index


def test_mcq_index_prompt_numbers_candidates_without_behaviour_names() -> None:
    answers = ["Sunny.", json.dumps({"name": "w", "arguments": {}}), "Which city?", "Sorry."]
    messages = render_mcq_index_messages("Weather {candidates}?", ('{"name": "w"}',), answers)
    assert [m["role"] for m in messages] == ["system", "user"]
    user = messages[1]["content"]
    positions = [user.index(f"[{i}]\n{text}") for i, text in enumerate(answers)]
    assert positions == sorted(positions)
    assert "Weather {candidates}?" in user and '[{"name": "w"}]' in user
    whole = "\n".join(m["content"] for m in messages).lower()
    for name in ("tool_call", "request_for_info", "cannot_answer", "direct", "behavior"):
        assert name not in whole
    assert re.fullmatch(r"w2c-mcq-index-v1@[0-9a-f]{12}", mcq_index_prompt_version())
