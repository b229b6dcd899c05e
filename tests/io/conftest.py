"""Fixtures for the importer tests: the shared real data, and valid lines to break."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import unavailable

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"

TOOL = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "parameters": {
        "type": "dict",
        "required": ["city"],
        "properties": {"city": {"type": "string", "description": "City name."}},
    },
}


@pytest.fixture
def shared_data() -> Path:
    """The shared real data folder ($W2C_SHARED_DATA, default <repo>/../shared/data)."""
    folder = Path(os.environ.get("W2C_SHARED_DATA", REPO.parent / "shared" / "data"))
    if not folder.is_dir():
        unavailable("the shared data", f"it is not found at {folder}; set W2C_SHARED_DATA")
    return folder


@pytest.fixture
def fixtures() -> Path:
    """The small hand-written fixture files of these tests."""
    return FIXTURES


def make_item(uuid: str = "item-1", **changes: Any) -> dict[str, Any]:
    """A valid When2Call test item (tool_call gold); `changes` replace or add fields."""
    item: dict[str, Any] = {
        "uuid": uuid,
        "source": "test",
        "source_id": "t-1",
        "question": "What is the weather in Oslo?",
        "correct_answer": "tool_call",
        "answers": {
            "direct": "It is sunny in Oslo.",
            "tool_call": json.dumps({"name": "get_weather", "arguments": {"city": "Oslo"}}),
            "request_for_info": "Which city do you mean?",
            "cannot_answer": "I cannot look up the weather.",
        },
        "target_tool": json.dumps(TOOL),
        "tools": [json.dumps(TOOL)],
    }
    item.update(changes)
    return item


@pytest.fixture
def tool() -> dict[str, Any]:
    """The tool spec the test items offer, as an object."""
    fresh: dict[str, Any] = json.loads(json.dumps(TOOL))
    return fresh


@pytest.fixture
def item() -> Callable[..., dict[str, Any]]:
    """A factory of valid test items: item(uuid, **field_changes)."""
    return make_item


@pytest.fixture
def write_lines(tmp_path: Path) -> Callable[..., Path]:
    """write_lines(rows, name=...) -> path: rows are objects (dumped) or raw strings."""

    def write(rows: list[Any], name: str = "items.jsonl") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows)
        path.write_text(text, encoding="utf-8")
        return path

    return write
