"""The args score, table-driven against the reference's definition (hand-checked)."""

from __future__ import annotations

from typing import Any

import pytest

from w2c_tui.domain.critictool import Step, Tool, ToolParam
from w2c_tui.runs.critictool.args import arg_score, contains_cjk
from w2c_tui.runs.critictool.parse import Reply

SIM = 0.25


class Recorder:
    """A similarity that always says SIM and remembers what it was asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, pred: str, gold: str) -> float:
        self.calls.append((pred, gold))
        return SIM


def _p(name: str, kind: str, required: bool) -> ToolParam:
    return ToolParam(name, kind, required)


TOOL = Tool(
    "T",
    None,
    (_p("a", "STRING", True), _p("n", "NUMBER", True)),
    (
        _p("f", "FLOAT", False),
        _p("b", "BOOLEAN", False),
        _p("x", "any", False),
        _p("arr", "array", False),
        _p("u", "Weird", False),
    ),
)
FINISH_TOOL = Tool("FinishAction", None, (), ())

CASES: list[tuple[str, Any, Any, float, list[tuple[str, str]]]] = [
    # (case, gold args, predicted args, score, similarity calls)
    ("no gold args, none predicted", {}, {}, 1.0, []),
    ("no gold args, a declared key predicted", {}, {"u": 1}, 1.0, []),
    ("no gold args, an extra key", {}, {"zz": 1}, 0.0, []),
    ("exact string", {"a": "x"}, {"a": "x"}, 1.0, []),
    ("different string", {"a": "x"}, {"a": "y"}, SIM, [("y", "x")]),
    ("optional arg missing", {"a": "x", "f": 1.5}, {"a": "x"}, 0.75, []),
    ("required arg missing", {"a": "x", "n": 1}, {"a": "x"}, 0.5, []),
    ("extra key beside gold args is ignored", {"a": "x"}, {"a": "x", "zz": 0}, 1.0, []),
    ("bool passes a NUMBER check", {"n": 1}, {"n": True}, SIM, [("True", "1")]),
    ("int fails a BOOLEAN check", {"b": True}, {"b": 1}, 0.0, []),
    ("int fails a FLOAT check", {"f": 2.0}, {"f": 2}, 0.0, []),
    ("int vs float under NUMBER: str() differs", {"n": 1.0}, {"n": 1}, SIM, [("1", "1.0")]),
    ("NUMBER given as two strings", {"n": "6"}, {"n": "5"}, SIM, [("5", "6")]),
    ("NUMBER as strings with CJK", {"n": "6"}, {"n": "五"}, 0.0, []),
    ("CJK in a STRING is compared", {"a": "您好"}, {"a": "你好"}, SIM, [("你好", "您好")]),
    ("any: equal str()", {"x": [1]}, {"x": [1]}, 1.0, []),
    ("any: different dicts", {"x": {"k": 2}}, {"x": {"k": 1}}, SIM, [("{'k': 1}", "{'k': 2}")]),
    ("a tuple is not an array", {"arr": [1, 2]}, {"arr": (1, 2)}, 0.0, []),
    ("unknown type name checks as str", {"u": 3}, {"u": 3}, 0.0, []),
    ("undeclared gold arg present (reference: KeyError)", {"zz": "q"}, {"zz": "q"}, 1.0, []),
    ("undeclared gold arg missing", {"zz": "q"}, {}, 0.5, []),
    ("predicted args not an object", {"a": "x"}, "x", 0.0, []),
    (
        "three args averaged",
        {"a": "x", "n": 2, "f": 1.0},
        {"a": "y", "n": 2},
        (SIM + 1 + 0.5) / 3,
        [("y", "x")],
    ),
]


@pytest.mark.parametrize(
    ("gold", "pred", "score", "calls"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_arg_score(gold: Any, pred: Any, score: float, calls: list[tuple[str, str]]) -> None:
    recorder = Recorder()
    reply = Reply("", "", "T", pred, "python", "")
    assert arg_score([TOOL], reply, Step("T", gold), recorder) == pytest.approx(score)
    assert recorder.calls == calls


def test_tool_lookup() -> None:
    recorder = Recorder()
    assert (
        arg_score([FINISH_TOOL], Reply("", "", "T", {}, "json", ""), Step("T", {}), recorder) == 0
    )
    finish = Reply("", "", "FinishAction", "bye", "json", "")
    assert arg_score([FINISH_TOOL], finish, Step("FinishAction", "bye"), recorder) == 0.0
    twice = Tool("T", None, (_p("a", "NUMBER", True),), (_p("a", "STRING", False),))
    reply = Reply("", "", "T", {"a": "x"}, "json", "")
    assert arg_score([twice, TOOL], reply, Step("T", {"a": "x"}), recorder) == 1.0  # last type
    assert recorder.calls == []


def test_contains_cjk() -> None:
    assert contains_cjk("abc一") and contains_cjk("龥")
    assert not contains_cjk("abc") and not contains_cjk("カタカナ") and not contains_cjk("한국어")
