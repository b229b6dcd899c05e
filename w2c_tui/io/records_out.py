"""Flat records as JSON lines or CSV text (CSV cells that a spreadsheet would run are defused)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from w2c_tui.io.csvcell import safe_cell


def list_cell(value: Any) -> Any:
    """A CSV cell (`csvcell.safe_cell`), lists written as `a;b;c`."""
    if isinstance(value, list | tuple):
        value = ";".join(str(v) for v in value)
    return safe_cell(value)


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
        writer.writerow({k: list_cell(v) for k, v in row.items()})
    return buffer.getvalue()
