"""Read a model's reply as CriticTool's evaluators do (the `format_load` semantics).

The reference's reading, step by step: after a "```json" fence (if any) keep the rest and strip
backticks and whitespace from both ends; keep from the first `{` to the last `}`; parse it as a
Python literal, else as JSON, else as JSON with every `'` turned into `"`. The fields are then
`error` (as parsed), `thought` and `name` (stringified: a null name reads "None") and `args`
(as parsed); a field that is missing, or a parse that failed, reads as the empty string.
"""

from __future__ import annotations

import ast
import json
import warnings
from dataclasses import dataclass
from typing import Any, Literal

from w2c_tui.domain.critictool import Step

FENCE = "```json"

ParsedAs = Literal["python", "json", "json_requoted"]
"""Which attempt parsed the reply: a Python literal, JSON, or JSON after `'` → `"`."""


@dataclass(frozen=True)
class Reply:
    """A model's reply as the evaluators read it. `error` and `args` are the parsed values
    (any type; treat them as read-only); missing fields are ''."""

    error: Any
    thought: str
    name: str
    args: Any
    parsed_as: ParsedAs | None
    """None when no attempt parsed the text (every field is then '')."""
    text: str
    """The part of the reply that was parsed (after the fence and brace cuts)."""

    def is_call(self, step: Step) -> bool:
        """The reply repeats `step` exactly: same name, args equal as Python values."""
        return bool(self.name == step.name and self.args == step.args)


def _cut(raw: str) -> str:
    if FENCE in raw:
        raw = raw[raw.find(FENCE) + len(FENCE) :].strip("`").strip()
    # find() is -1 when there is no brace: the reference then keeps the last character, and
    # the closing cut below leaves nothing parsable either way.
    raw = raw[raw.find("{") :]
    return raw[: raw.rfind("}") + 1]


def _parse(text: str) -> tuple[Any, ParsedAs | None]:
    try:
        with warnings.catch_warnings():  # "invalid escape sequence" in a reply is not ours
            warnings.simplefilter("ignore")
            return ast.literal_eval(text), "python"
    except Exception:  # the reference ignores every failure of each attempt
        pass
    try:
        return json.loads(text), "json"
    except Exception:
        pass
    try:
        return json.loads(text.replace("'", '"')), "json_requoted"
    except Exception:
        return None, None


def _field(data: Any, key: str, stringify: bool = False) -> Any:
    """data[key] (str() of it when asked), or '' where the reference's lookup fails."""
    if isinstance(data, dict) and key in data:
        return str(data[key]) if stringify else data[key]
    return ""


def parse_reply(raw: str) -> Reply:
    """`raw` read the way the reference reads a prediction."""
    text = _cut(raw)
    data, parsed_as = _parse(text)
    if parsed_as is None:
        return Reply("", "", "", "", None, text)
    return Reply(
        error=_field(data, "error"),
        thought=_field(data, "thought", stringify=True),
        name=_field(data, "name", stringify=True),
        args=_field(data, "args"),
        parsed_as=parsed_as,
        text=text,
    )
