"""Flat records as JSON lines or CSV text (CSV cells that a spreadsheet would run are defused)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A CSV cell that spreadsheets show as text: a leading =, +, -, @ gets a quote in front.

    Only text is touched; numbers stay numbers. Lists become `a;b;c`.
    """
    if isinstance(value, list | tuple):
        value = ";".join(str(v) for v in value)
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def records_text(rows: Sequence[dict[str, Any]], fmt: str, fields: Sequence[str] = ()) -> str:
    """`rows` as JSONL (one object a line) or CSV (header from `fields` or the first row)."""
    buffer = io.StringIO()
    if fmt == "jsonl":
        for row in rows:
            buffer.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
        return buffer.getvalue()
    header = list(fields) or (list(rows[0]) if rows else [])
    writer = csv.DictWriter(buffer, fieldnames=header, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: safe_cell(v) for k, v in row.items()})
    return buffer.getvalue()
