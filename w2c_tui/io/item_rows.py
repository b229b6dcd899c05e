"""The flat record of a cleaned item (jsonl, csv, parquet and hf exports share it)."""

from __future__ import annotations

import json
from typing import Any

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.outcomes import CleanItem
from w2c_tui.io.exporters.tabular import Column, ColumnType

INT, LIST = ColumnType.INT, ColumnType.TEXT_LIST

ITEM_COLUMNS: tuple[Column, ...] = (
    Column("uuid"),
    Column("position", INT),
    Column("source"),
    Column("source_id"),
    Column("question"),
    Column("orig_question"),
    Column("correct_answer"),
    Column("dataset_gold"),
    Column("gold_source"),
    *(Column(f"answer_{label.value}") for label in LABELS),
    Column("target_tool"),
    Column("tools", LIST),
    Column("n_tools", INT),
    Column("orig_tools", LIST),
    Column("held_out_param"),
    Column("flags", ColumnType.CODES),
    Column("flag_names", ColumnType.CODES),
)
"""`position` is the 0-based place in the imported file; `tools` are the raw JSON strings."""


def item_row(clean: CleanItem) -> dict[str, Any]:
    """One cleaned item as a flat record."""
    item = clean.item
    answers = dict(item.answers)
    orig_tools = item.extra.get("orig_tools")
    codes = [mark.code for mark in clean.flags]
    return {
        "uuid": item.uuid,
        "position": item.position,
        "source": item.source,
        "source_id": item.source_id,
        "question": item.question,
        "orig_question": item.orig_question,
        "correct_answer": clean.gold.value if clean.gold else None,
        "dataset_gold": item.gold.value if item.gold else None,
        "gold_source": clean.gold_source,
        **{f"answer_{label.value}": answers.get(label.value) for label in LABELS},
        "target_tool": item.target_tool,
        "tools": [tool.raw for tool in item.tools],
        "n_tools": item.n_tools,
        "orig_tools": [t if isinstance(t, str) else json.dumps(t) for t in orig_tools]
        if isinstance(orig_tools, list)
        else None,
        "held_out_param": item.held_out_param,
        "flags": codes,
        "flag_names": [mark.text for mark in clean.flags],
    }
