"""Preference pairs in the official When2Call train format (`when2call_train_pref.jsonl`).

Per line: `tools` (the tool objects, not JSON strings), `messages` (the user turn only),
`chosen_response` and `rejected_response` (`{"role": "assistant", "content": …}`), and the
official converter's `chosen_reward` 1.0 / `rejected_reward` 0.0. A tool-call answer is
wrapped as `<TOOLCALL>[…]</TOOLCALL>` (README of NVIDIA/When2Call; adapt it to the chat
template of the model you train). Lines are `json.dumps` with its defaults, like the official
files.
"""

from __future__ import annotations

import json
from typing import Any

from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import Item

TOOLCALL_OPEN = "<TOOLCALL>["
TOOLCALL_CLOSE = "]</TOOLCALL>"


def assistant_content(item: Item, label: Label) -> str:
    """The item's answer for `label` as an assistant turn's text."""
    text = item.answer(label)
    if text is None:
        raise KeyError(f"item {item.uuid} has no {label.value} answer")
    if label is not Label.TOOL_CALL:
        return text
    try:
        call = json.dumps(json.loads(text))
    except json.JSONDecodeError:
        call = text
    return f"{TOOLCALL_OPEN}{call}{TOOLCALL_CLOSE}"


def _tool(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def preference_line(item: Item, chosen: Label, rejected: Label) -> str:
    """One line (without its ending) of the preference file."""
    obj = {
        "tools": [_tool(tool.raw) for tool in item.tools],
        "messages": [{"role": "user", "content": item.question}],
        "chosen_response": {"role": "assistant", "content": assistant_content(item, chosen)},
        "rejected_response": {"role": "assistant", "content": assistant_content(item, rejected)},
        "chosen_reward": 1.0,
        "rejected_reward": 0.0,
    }
    return json.dumps(obj)
