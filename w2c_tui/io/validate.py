"""Typed field getters that turn a wrong or missing field into an InputError naming it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import LABELS, Label

LABEL_NAMES = ", ".join(label.value for label in LABELS)

_MISSING = object()


def type_name(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def fail(path: str | Path, line: int | None, field: str | None, message: str) -> InputError:
    """An InputError for `field` on `line` of `path` (raise it)."""
    return InputError(str(path), message, line=line, field=field)


def wrong_type(
    path: str | Path, line: int | None, field: str, expected: str, value: Any
) -> InputError:
    """An InputError saying what type `field` should have had."""
    return fail(path, line, field, f"expected {expected}, got {type_name(value)}")


def require(
    obj: dict[str, Any], key: str, path: str | Path, line: int | None, name: str | None = None
) -> Any:
    """obj[key]; an InputError when the key is absent."""
    value = obj.get(key, _MISSING)
    if value is _MISSING:
        raise fail(path, line, name or key, "missing required field")
    return value


def require_str(
    obj: dict[str, Any],
    key: str,
    path: str | Path,
    line: int | None,
    name: str | None = None,
    *,
    non_empty: bool = False,
) -> str:
    """A required string field (non-empty when asked)."""
    value = require(obj, key, path, line, name)
    if not isinstance(value, str):
        raise wrong_type(path, line, name or key, "a string", value)
    if non_empty and not value.strip():
        raise fail(path, line, name or key, "must not be empty")
    return value


def optional_str(
    obj: dict[str, Any], key: str, path: str | Path, line: int | None, name: str | None = None
) -> str | None:
    """A string-or-null field that may be absent (absent reads as None)."""
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise wrong_type(path, line, name or key, "a string or null", value)
    return value


def require_dict(
    obj: dict[str, Any], key: str, path: str | Path, line: int | None, name: str | None = None
) -> dict[str, Any]:
    """A required JSON-object field."""
    value = require(obj, key, path, line, name)
    if not isinstance(value, dict):
        raise wrong_type(path, line, name or key, "an object", value)
    return value


def require_list(
    obj: dict[str, Any], key: str, path: str | Path, line: int | None, name: str | None = None
) -> list[Any]:
    """A required JSON-array field."""
    value = require(obj, key, path, line, name)
    if not isinstance(value, list):
        raise wrong_type(path, line, name or key, "an array", value)
    return value


def require_int(
    obj: dict[str, Any], key: str, path: str | Path, line: int | None, name: str | None = None
) -> int:
    """A required integer field (booleans are not integers here)."""
    value = require(obj, key, path, line, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise wrong_type(path, line, name or key, "an integer", value)
    return value


def optional_bool(
    obj: dict[str, Any], key: str, path: str | Path, line: int | None, name: str | None = None
) -> bool:
    """A boolean-or-null field that may be absent (absent and null read as False)."""
    value = obj.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise wrong_type(path, line, name or key, "true, false or null", value)
    return value


def optional_number(
    obj: dict[str, Any], key: str, path: str | Path, line: int | None, name: str | None = None
) -> float | None:
    """A number-or-null field that may be absent."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise wrong_type(path, line, name or key, "a number or null", value)
    return float(value)


def parse_label(value: Any, path: str | Path, line: int | None, field: str) -> Label:
    """A label name (`direct_answer` reads as direct); an InputError for anything else."""
    if not isinstance(value, str):
        raise wrong_type(path, line, field, "a label name (string)", value)
    label = Label.named(value)
    if label is None:
        raise fail(path, line, field, f"unknown label {value!r} (expected one of {LABEL_NAMES})")
    return label


def json_object_text(value: Any, path: str | Path, line: int | None, field: str) -> str:
    """A tool-like spec as JSON text: a string must hold a JSON object; an object is dumped.

    Strings are kept byte for byte, since the test files' tool strings are what prompts embed.
    """
    if isinstance(value, dict):
        return json.dumps(value)
    if not isinstance(value, str):
        raise wrong_type(path, line, field, "a JSON string or an object", value)
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError) as error:
        raise fail(path, line, field, f"not a JSON object: {error}") from error
    if not isinstance(parsed, dict):
        raise fail(path, line, field, f"not a JSON object: holds a JSON {type_name(parsed)}")
    return value


def canonical_json(value: Any) -> str:
    """Key-sorted compact JSON, for hashing records."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
