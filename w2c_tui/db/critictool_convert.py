"""CriticTool rows ↔ domain objects (samples in their dataset form, predictions)."""

from __future__ import annotations

import json
from typing import Any, cast

from w2c_tui.db.convert import dumps, loads
from w2c_tui.db.tables import CriticToolPredictionRow, CriticToolSampleRow
from w2c_tui.domain.critictool import (
    ExternalMode,
    Sample,
    Source,
    Step,
    Tool,
    ToolParam,
    Turn,
    Variant,
)
from w2c_tui.domain.critictool_stored import StoredPrediction, StoredSample


def _param(param: ToolParam) -> dict[str, Any]:
    return {"name": param.name, "type": param.type, "description": param.description}


def tool_dict(tool: Tool) -> dict[str, Any]:
    """A tool as stored: name, description, required and optional parameters."""
    return {
        "name": tool.name,
        "description": tool.description,
        "required_parameters": [_param(p) for p in tool.required],
        "optional_parameters": [_param(p) for p in tool.optional],
    }


def item_tool(tool: Tool) -> dict[str, Any]:
    """A tool in the item row's (When2Call, JSON-schema) shape, for the generic screens; the
    CriticTool shape is kept in `critic_sample.tools_json`."""
    return {
        "name": tool.name,
        "description": tool.description or "",
        "parameters": {
            "type": "object",
            "properties": {
                p.name: {"type": p.type, "description": p.description or ""} for p in tool.params
            },
            "required": [p.name for p in tool.required],
        },
    }


def _tool(data: dict[str, Any]) -> Tool:
    def params(key: str, required: bool) -> tuple[ToolParam, ...]:
        return tuple(
            ToolParam(p["name"], p["type"], required, p.get("description")) for p in data[key]
        )

    return Tool(
        data["name"],
        data.get("description"),
        params("required_parameters", True),
        params("optional_parameters", False),
    )


def sample_values(sample: Sample) -> dict[str, Any]:
    """The columns of `critic_sample` that come from the sample itself (dataset form)."""
    return {
        "sample_id": sample.sample_id,
        "source": sample.source,
        "error_type": sample.error_type,
        "system_prompt": sample.system_prompt,
        "turns_json": dumps([[t.role, t.content] for t in sample.original_turns]),
        "tools_json": dumps([tool_dict(t) for t in sample.tools]),
        "gold_json": dumps(
            [{"name": s.name, "args": s.args, "thought": s.thought} for s in sample.gold]
        ),
        "item_sha256": sample.item_sha256,
        "raw_json": sample.raw_json,
        "sha256": sample.sha256,
        "line": sample.line,
    }


def first_question(sample: Sample) -> str:
    """The user's first message (what the item list shows as the question)."""
    return next((t.content for t in sample.original_turns if t.role == "user"), "")


def to_stored_sample(row: CriticToolSampleRow, dataset: str) -> StoredSample:
    """A `critic_sample` row as a StoredSample (dataset form: no instruction, no predictions)."""
    turns = tuple(Turn(role, content) for role, content in json.loads(row.turns_json))
    gold = tuple(
        Step(step["name"], step["args"], step.get("thought")) for step in json.loads(row.gold_json)
    )
    sample = Sample(
        sample_id=row.sample_id,
        source=cast(Source, row.source),
        turns=turns,
        dataset_turns=len(turns),
        system_prompt=row.system_prompt,
        instruction=None,
        tools=tuple(_tool(t) for t in json.loads(row.tools_json)),
        error_type=row.error_type,
        gold=gold,
        predictions=None,
        raw_json=row.raw_json,
        sha256=row.sha256,
        item_sha256=row.item_sha256,
        line=row.line,
    )
    return StoredSample(
        item_id=row.item_id,
        dataset=dataset,
        sample=sample,
        variant=cast(Variant | None, row.variant),
        cot=row.cot,
        mode=cast(ExternalMode | None, row.mode),
        source_path=row.source_path,
    )


def to_stored_prediction(row: CriticToolPredictionRow, target_model: str) -> StoredPrediction:
    """A `critic_prediction` row as a StoredPrediction."""
    assert row.id is not None
    return StoredPrediction(
        id=row.id,
        item_id=row.item_id,
        response_id=row.response_id,
        target_model=target_model,
        run_id=row.run_id,
        mode=cast(ExternalMode | None, row.mode or None),
        cot=row.cot,
        rounds=tuple(str(r) for r in loads(row.rounds_json) or ()),
        parsed=tuple(loads(row.parsed_json) or ()),
        source_path=row.source_path,
    )
