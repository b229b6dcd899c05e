"""Validate one CriticTool record (turns, tool list, error type, gold steps, predictions)."""

from __future__ import annotations

import ast
import hashlib
import json
from dataclasses import dataclass
from typing import Any, NoReturn

from w2c_tui.domain.critictool import (
    ERROR_TYPES,
    FINISH_ACTION,
    SampleError,
    Source,
    Step,
    Tool,
    ToolParam,
    Turn,
)
from w2c_tui.domain.critictool_prompts import ANCHOR, INSTRUCTIONS, TOOLS_END
from w2c_tui.io.validate import canonical_json, type_name

ROLES = ("system", "user", "assistant", "function")
"""The message roles the reference's templates know."""


@dataclass(frozen=True)
class Where:
    """The file, sample and line a record came from, to name them in errors."""

    path: str
    sample_id: str
    line: int

    def fail(self, field: str, message: str) -> NoReturn:
        """Raise the SampleError for `field` of this record."""
        raise SampleError(self.path, self.sample_id, field, message, line=self.line)

    def wrong_type(self, field: str, expected: str, value: Any) -> NoReturn:
        """Raise: `field` should have been `expected`."""
        self.fail(field, f"expected {expected}, got {type_name(value)}")


def read_turns(where: Where, value: Any) -> tuple[Turn, ...]:
    """query_prompt: a non-empty list of {role, content}, message 0 the system prompt."""
    if not isinstance(value, list):
        where.wrong_type("query_prompt", "an array of messages", value)
    if not value:
        where.fail("query_prompt", "must hold at least the system message")
    turns: list[Turn] = []
    for index, message in enumerate(value):
        field = f"query_prompt[{index}]"
        if not isinstance(message, dict):
            where.wrong_type(field, "an object with role and content", message)
        role, content = message.get("role"), message.get("content")
        if role not in ROLES:
            shown = role if isinstance(role, str) else type_name(role)
            where.fail(f"{field}.role", f"unknown role {shown!r} (expected {', '.join(ROLES)})")
        if not isinstance(content, str):
            where.wrong_type(f"{field}.content", "a string", content)
        turns.append(Turn(role, content))
    if turns[0].role != "system":
        where.fail("query_prompt[0].role", "message 0 must be the system prompt")
    return tuple(turns)


def split_instruction(content: str) -> tuple[str, str | None]:
    """(system prompt without the inserted instruction, the instruction's name or None).

    The reference inserts the instruction right before the first ANCHOR.
    """
    anchor = content.find(ANCHOR)
    if anchor < 0:
        return content, None
    head = content[:anchor]
    for name, text in sorted(INSTRUCTIONS.items(), key=lambda pair: -len(pair[1])):
        if head.endswith(text):
            return head[: -len(text)] + content[anchor:], name
    return content, None


def tool_list_text(where: Where, system: str) -> str:
    """The tool list's text: from the first `[` to the text that starts the usage notes."""
    start = system.find("[")
    end = system.find(TOOLS_END)
    field = "query_prompt[0].content"
    if start < 0:
        where.fail(field, "no tool list: the system prompt has no '['")
    if end < 0:
        where.fail(field, f"no tool list: the system prompt has no {TOOLS_END!r} after it")
    if end < start:
        where.fail(field, f"no tool list: {TOOLS_END!r} comes before the first '['")
    return system[start:end]


def parse_tool_list(where: Where, system: str) -> tuple[Tool, ...]:
    """The tool list of the system prompt: JSON, else a Python literal (as the reference)."""
    text = tool_list_text(where, system)
    field = "query_prompt[0].content"
    try:
        value: Any = json.loads(text)
    except (ValueError, RecursionError):
        try:
            value = ast.literal_eval(text)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as error:
            where.fail(field, f"the tool list is neither JSON nor a Python literal: {error}")
    if not isinstance(value, list):
        where.wrong_type(f"{field} (tool list)", "a list of tools", value)
    return tuple(_tool(where, index, entry) for index, entry in enumerate(value))


def _tool(where: Where, index: int, entry: Any) -> Tool:
    field = f"query_prompt[0].content (tool {index})"
    if not isinstance(entry, dict):
        where.wrong_type(field, "an object", entry)
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        where.fail(f"{field}.name", "a tool needs a non-empty string name")
    description = entry.get("description")
    groups: list[tuple[ToolParam, ...]] = []
    for key, required in (("required_parameters", True), ("optional_parameters", False)):
        params = entry.get(key, [])
        if not isinstance(params, list):
            where.wrong_type(f"{field}.{key}", "an array", params)
        groups.append(
            tuple(_param(where, f"{field}.{key}[{i}]", p, required) for i, p in enumerate(params))
        )
    return Tool(name, description if isinstance(description, str) else None, groups[0], groups[1])


def _param(where: Where, field: str, value: Any, required: bool) -> ToolParam:
    if not isinstance(value, dict):
        where.wrong_type(field, "an object with name and type", value)
    name, kind = value.get("name"), value.get("type")
    if not isinstance(name, str):
        where.wrong_type(f"{field}.name", "a string", name)
    if not isinstance(kind, str):
        where.wrong_type(f"{field}.type", "a type name string", kind)
    description = value.get("description")
    return ToolParam(name, kind, required, description if isinstance(description, str) else None)


def read_error_type(where: Where, record: dict[str, Any], source: Source) -> str | None:
    """Internal: required, one of the four categories or empty/null; external: kept if any."""
    if source == "internal" and "error_type" not in record:
        where.fail("error_type", "missing required field (empty or null for error-free samples)")
    value = record.get("error_type")
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        where.wrong_type("error_type", "a string or null", value)
    if source == "internal" and value not in ERROR_TYPES:
        where.fail(
            "error_type", f"unknown error type {value!r} (expected {', '.join(ERROR_TYPES)})"
        )
    return value


def read_step(where: Where, field: str, value: Any) -> Step:
    """A gold step {name, args, thought?}: args an object, or a string for FinishAction."""
    if not isinstance(value, dict):
        where.wrong_type(field, "an object with name and args", value)
    name = value.get("name")
    if not isinstance(name, str) or not name:
        where.fail(f"{field}.name", "expected a non-empty string")
    if "args" not in value:
        where.fail(f"{field}.args", "missing required field")
    args = value["args"]
    if not isinstance(args, dict) and not (name == FINISH_ACTION and isinstance(args, str)):
        expected = "an object (or a string for FinishAction)"
        where.wrong_type(f"{field}.args", expected, args)
    thought = value.get("thought")
    if "thought" in value and not isinstance(thought, str):
        where.wrong_type(f"{field}.thought", "a string", thought)
    return Step(name, args, thought)


def read_gold(where: Where, value: Any) -> tuple[Source, tuple[Step, ...]]:
    """ground_truth: an object (internal) or a list of at least two steps (external)."""
    if isinstance(value, dict):
        return "internal", (read_step(where, "ground_truth", value),)
    if isinstance(value, list):
        if len(value) < 2:
            where.fail("ground_truth", "an external sample needs [retry target, next step]")
        steps = tuple(read_step(where, f"ground_truth[{i}]", v) for i, v in enumerate(value))
        return "external", steps
    where.wrong_type("ground_truth", "an object (internal) or an array (external)", value)


def read_predictions(
    where: Where, record: dict[str, Any], source: Source
) -> tuple[str, ...] | None:
    """predictions: a string (internal) or a list of strings (external); None when absent."""
    if "predictions" not in record:
        return None
    value = record["predictions"]
    if source == "internal":
        if not isinstance(value, str):
            where.wrong_type("predictions", "a string (the model's raw output)", value)
        return (value,)
    if not isinstance(value, list):
        where.wrong_type("predictions", "an array of strings (one per round)", value)
    for index, text in enumerate(value):
        if not isinstance(text, str):
            where.wrong_type(f"predictions[{index}]", "a string", text)
    return tuple(value)


def dataset_turn_count(turns: tuple[Turn, ...], predictions: tuple[str, ...] | None) -> int:
    """How many turns precede those the retry rounds appended.

    Each retried round appended the raw prediction as an assistant turn and the turn before it
    (the environment error) again; the longest such tail that matches is taken off.
    """
    if not predictions:
        return len(turns)
    for rounds in range(min(len(predictions), (len(turns) - 1) // 2), 0, -1):
        base = len(turns) - 2 * rounds
        error = turns[base - 1]
        if all(
            turns[base + 2 * i] == Turn("assistant", predictions[i])
            and turns[base + 2 * i + 1] == error
            for i in range(rounds)
        ):
            return base
    return len(turns)


def item_sha256(turns: tuple[Turn, ...], record: dict[str, Any]) -> str:
    """sha256 of the dataset content: turns, ground_truth and error_type (canonical JSON)."""
    content = {
        "query_prompt": [{"role": t.role, "content": t.content} for t in turns],
        "ground_truth": record.get("ground_truth"),
        "error_type": record.get("error_type") or None,
    }
    return hashlib.sha256(canonical_json(content).encode("utf-8")).hexdigest()
