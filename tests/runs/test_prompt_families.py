"""The seven official When2Call families: golden hashes on the 300 real items (§7 fact 6), the
probe renderings of §2.4b byte for byte, the tool-call formats (facts 11–13) and lm-eval's move
of the prompt's trailing whitespace into the continuation (fact 8)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from tiny_models import load_tasks

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Task
from w2c_tui.runs.local.encoding import split_whitespace
from w2c_tui.runs.prompts import OFFICIAL_TEMPLATES, render, template_hash

PROBE = json.loads((Path(__file__).parent / "fixtures" / "probe_prompts.json").read_text("utf-8"))

GOLDEN = {
    # family: (prompts hash, choices hash, prompt[0] chars, sum of prompt chars)
    "when2call-default": ("ea35e1f24f738b39", "94bd9d43e90f1150", 2010, 1_000_054),
    "when2call-llama3_2": ("59a388011e1e7910", "df87d7e71e71a388", 2484, 1_137_340),
    "when2call-qwen2_5": ("c1bc4fa9f8bd6b3e", "94bd9d43e90f1150", 2151, 1_037_045),
    "when2call-xlam": ("b87f05acf8d19033", "5d3d1bb306b98419", 2679, 1_200_312),
    "when2call-hermes": ("a61d82a544eca5b1", "4b7bc6d9fc11225e", 2455, 1_128_245),
    "when2call-functionary": ("fdca84430fd005d8", "f8025ffaab49905a", 2924, 1_343_702),
    "when2call-nemotron": ("f484aae5803faa53", "30f2751e7e9fe108", 1928, 975_454),
}
MOVED = {
    # fact 8: what moves from the end of every prompt into the continuations
    "when2call-llama3_2": "\n\n",
    "when2call-xlam": "\n\n",
    "when2call-functionary": "\n\n",
    "when2call-qwen2_5": "\n",
    "when2call-nemotron": "\n",
    "when2call-hermes": "",
}


def h16(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def probe(tools: tuple[str, ...]) -> Task:
    answers = (
        ("direct", "Sure."),
        ("tool_call", PROBE["call"]),
        ("request_for_info", "Which?"),
        ("cannot_answer", "No."),
    )
    return Task(1, "probe", "QUESTION", tools, answers, Label.TOOL_CALL)


def test_every_family_is_built_in() -> None:
    assert set(OFFICIAL_TEMPLATES) == set(GOLDEN)
    assert len({template_hash(name) for name in OFFICIAL_TEMPLATES}) == 7


@pytest.mark.parametrize("family", sorted(GOLDEN))
def test_golden_hashes_on_the_300_judge_items(judge_file: Path, family: str) -> None:
    tasks = load_tasks(judge_file)
    assert len(tasks) == 300
    rendered = [render(family, t) for t in tasks]
    prompts, choices, first, total = GOLDEN[family]
    assert h16("\x00".join(p for p, _ in rendered)) == prompts
    assert h16("\x00".join("\x01".join(c) for _, c in rendered)) == choices
    assert len(rendered[0][0]) == first
    assert sum(len(p) for p, _ in rendered) == total


@pytest.mark.parametrize("family", sorted(PROBE["families"]))
def test_probe_renderings_byte_for_byte(family: str) -> None:
    want = PROBE["families"][family]
    prompt, choices = render(family, probe((PROBE["tool"],)))
    assert prompt == want["prompt"]
    assert choices == ["Sure.", want["tool_call"], "Which?", "No."]
    empty, _ = render(family, probe(()))
    assert empty == want["prompt_no_tools"]


@pytest.mark.parametrize("family", sorted(MOVED))
def test_trailing_whitespace_moves_into_every_continuation(family: str) -> None:
    prompt, choices = render(family, probe((PROBE["tool"],)))
    for choice in choices:
        context, continuation = split_whitespace(prompt, choice)
        assert context + continuation == prompt + choice
        assert continuation == MOVED[family] + choice
        assert context == context.rstrip()


def test_default_moves_only_for_questions_ending_in_whitespace(judge_file: Path) -> None:
    moved = 0
    for task in load_tasks(judge_file):
        prompt, choices = render("when2call-default", task)
        _, continuation = split_whitespace(prompt, choices[0])
        moved += continuation != choices[0]
    assert moved == 6


def test_llama3_2_call_values() -> None:
    """Fact 11: strings in double quotes without escaping, anything else as Python's str()."""
    call = json.dumps(
        {"name": "f", "arguments": {"k": 'a"b é', "n": 3, "b": True, "l": ["x"], "d": {"k": 1}}}
    )
    task = Task(1, "p", "Q", (), (("tool_call", call),), Label.TOOL_CALL)
    _, [rendered] = render("when2call-llama3_2", task)
    assert rendered == "[f(k=\"a\"b é\", n=3, b=True, l=['x'], d={'k': 1})]"
    no_args = Task(1, "p", "Q", (), (("tool_call", '{"name": "g", "arguments": {}}'),), None)
    assert render("when2call-llama3_2", no_args)[1] == ["[g()]"]


def test_functionary_double_quotes_and_falls_back_to_parameters() -> None:
    """Fact 12, and `parameters` where the call has no `arguments`."""
    call = json.dumps({"name": "set", "parameters": {"room": "Kitchen", "on": False, "n": 2}})
    task = Task(1, "p", "Q", (), (("tool_call", call),), Label.TOOL_CALL)
    _, [rendered] = render("when2call-functionary", task)
    assert rendered == '<function=set>{"room": ""Kitchen"", "on": "false", "n": "2"}</function>'


def test_xlam_tools_are_the_repr_of_the_raw_strings() -> None:
    """Fact 13: a tool string holding a single quote gets it escaped by repr."""
    tool = json.dumps({"name": "t", "description": "it's"})
    prompt, _ = render("when2call-xlam", probe((tool, PROBE["tool"])))
    assert repr([tool, PROBE["tool"]]) in prompt
    assert '[\'{"name": "t", "description": "it\\\'s"}\', ' in prompt
