"""CSV cells that a spreadsheet will not run: text starting with = + - @ (or a tab / CR) gets a
leading apostrophe (OWASP's CSV-injection advice). Numbers are written as numbers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """`value`, with text that a spreadsheet would read as a formula neutralised."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def safe_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """Every cell of a CSV row through `safe_cell`."""
    return {key: safe_cell(value) for key, value in row.items()}
