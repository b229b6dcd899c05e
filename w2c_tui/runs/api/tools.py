"""BFCL tool specs as the API's native `tools`, and a native tool call back as When2Call text.

Schema types BFCL uses that JSON Schema lacks are mapped: `dict`→`object`, `float`→`number`,
`tuple`→`array`, `any`→ no type. (The official inference script instead turns every top-level
property into a string, WHEN2CALL_REFERENCE.md §3.1; we keep the declared types.) Function names
must match `[A-Za-z0-9_-]{1,64}` at OpenAI, so other characters (BFCL's dots) become `_`; the
call's name is mapped back to the dataset's name in the output.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

_TYPES = {"dict": "object", "float": "number", "tuple": "array"}
_BAD_NAME = re.compile(r"[^A-Za-z0-9_-]")


def _schema(value: Any) -> Any:
    """A copy with BFCL type names replaced (only string values of `type` keys are touched)."""
    if isinstance(value, list):
        return [_schema(entry) for entry in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, entry in value.items():
        if key == "type" and isinstance(entry, str):
            if entry == "any":
                continue
            out[key] = _TYPES.get(entry, entry)
        else:
            out[key] = _schema(entry)
    return out


def native_tools(tools: Sequence[str]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the `tools` parameter, API name → dataset name) for the item's tool strings."""
    specs: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for raw in tools:
        tool = json.loads(raw)
        original = str(tool.get("name", ""))
        name = _BAD_NAME.sub("_", original)[:64] or "tool"
        stem, n = name, 1
        while name in names:
            n += 1
            suffix = f"_{n}"
            name = stem[: 64 - len(suffix)] + suffix
        names[name] = original
        parameters = _schema(tool.get("parameters") or {"type": "object", "properties": {}})
        function: dict[str, Any] = {"name": name, "parameters": parameters}
        if tool.get("description"):
            function["description"] = str(tool["description"])
        specs.append({"type": "function", "function": function})
    return specs, names


def call_text(name: str, arguments: str, names: dict[str, str]) -> str:
    """A tool call as When2Call writes one: `{"name": …, "arguments": {…}}` (json.dumps)."""
    try:
        parsed: Any = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        parsed = arguments
    return json.dumps({"name": names.get(name, name), "arguments": parsed})
