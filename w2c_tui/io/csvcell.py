"""CSV cells that a spreadsheet will not run, and CSV reading that names the line of a fault.

Text starting with = + - @ (or a tab / CR) gets a leading apostrophe (OWASP's CSV-injection
advice), and so does text that already starts with apostrophes before such a character, so
that `unsafe_cell` undoes `safe_cell` exactly: an exported file imported back is what was
exported. Numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

MAX_CSV_FIELD = 1 << 20
"""The longest CSV field read (characters); longer is refused with its line."""


def _defused(value: str) -> bool:
    """Whether `value` starts with a formula character after any apostrophes."""
    return value.lstrip("'").startswith(FORMULA_START)


def safe_cell(value: Any) -> Any:
    """`value`, with text that a spreadsheet would read as a formula neutralised."""
    if isinstance(value, str) and _defused(value):
        return "'" + value
    return value


def unsafe_cell(value: str) -> str:
    """The exact inverse of `safe_cell` on text: one leading apostrophe dropped from a cell
    that `safe_cell` would have written that way."""
    if value.startswith("'") and _defused(value[1:]):
        return value[1:]
    return value


def safe_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """Every cell of a CSV row through `safe_cell`."""
    return {key: safe_cell(value) for key, value in row.items()}


def csv_rows(path: Path, text: str, dialect: str = "excel") -> Iterator[tuple[int, list[str]]]:
    """(line number where the record ends, cells) of every CSV record in `text`; a field
    longer than `MAX_CSV_FIELD` characters or a malformed record is an InputError naming the
    line (and the column, when it is known)."""
    if csv.field_size_limit() < MAX_CSV_FIELD:
        csv.field_size_limit(MAX_CSV_FIELD)
    reader = csv.reader(io.StringIO(text, newline=""), dialect=dialect)
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            line = reader.line_num or 1
            if "field larger than field limit" in str(error):
                raise InputError(
                    str(path),
                    f"a field longer than {MAX_CSV_FIELD:,} characters (or an unclosed quote)",
                    line=line,
                ) from error
            raise InputError(str(path), f"not valid CSV: {error}", line=line) from error
        yield reader.line_num, cells
