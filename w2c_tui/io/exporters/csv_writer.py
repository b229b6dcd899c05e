"""The one CSV writer of every export: a header, then a record per row, each cell defused
(`csvcell.safe_cell`: text a spreadsheet would run as a formula gets an apostrophe)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from w2c_tui.io.csvcell import safe_cell


def list_cell(value: Any) -> Any:
    """A CSV cell (`csvcell.safe_cell`), lists written as `a;b;c`."""
    if isinstance(value, list | tuple):
        value = ";".join(str(v) for v in value)
    return safe_cell(value)


def csv_text(rows: Sequence[dict[str, Any]], fields: Sequence[str] = ()) -> str:
    """`rows` as CSV: the header is `fields` (else the first row's keys), keys not in it are
    left out, missing ones are empty."""
    buffer = io.StringIO()
    header = list(fields) or (list(rows[0]) if rows else [])
    writer = csv.DictWriter(buffer, fieldnames=header, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: list_cell(v) for k, v in row.items()})
    return buffer.getvalue()
