"""Flat records as text: JSON lines or CSV (`csv_writer`), by format name."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from w2c_tui.io.exporters.csv_writer import csv_text

RecordsWriter = Callable[[Sequence[dict[str, Any]], Sequence[str]], str]


def jsonl_text(rows: Sequence[dict[str, Any]], _fields: Sequence[str] = ()) -> str:
    """One JSON object a line (UTF-8 as is; what JSON cannot hold written as its text)."""
    return "".join(json.dumps(row, ensure_ascii=False, default=str) + "\n" for row in rows)


RECORD_FORMATS: dict[str, RecordsWriter] = {"jsonl": jsonl_text, "csv": csv_text}
"""The text formats of line-per-record exports (labels, adjudications, run results)."""


def records_text(rows: Sequence[dict[str, Any]], fmt: str, fields: Sequence[str] = ()) -> str:
    """`rows` as `fmt`: JSONL (one object a line) or CSV (header from `fields` or the first
    row)."""
    return RECORD_FORMATS[fmt](rows, fields)
