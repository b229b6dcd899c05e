"""Long-format ratings tables (CSV or JSONL: item, rater, label) for agreement on any data."""

from __future__ import annotations

from pathlib import Path

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.names import clean_name, name_problem
from w2c_tui.io.csvcell import csv_rows
from w2c_tui.io.jsonl import iter_objects, read_bytes
from w2c_tui.io.validate import type_name

FIELDS = ("item", "rater", "label")


def read_ratings(path: Path) -> list[tuple[str, str, str | None]]:
    """(item, rater, label) rows; an empty label is missing. CSV by suffix, else JSONL.

    Any category names are allowed. A (item, rater) pair given twice is an error, as is a
    missing column or a value that is not a string (numbers are accepted and turned to text).
    """
    data = read_bytes(path)
    rows = _csv(path, data) if path.suffix.lower() in {".csv", ".tsv"} else _jsonl(path, data)
    seen: dict[tuple[str, str], int] = {}
    for line, item, rater, _label in rows:
        key = (item, rater)
        if key in seen:
            raise InputError(
                str(path),
                f"rater {rater!r} rates item {item!r} twice (first on line {seen[key]})",
                line=line,
            )
        seen[key] = line
    if not rows:
        raise InputError(str(path), "no ratings in the file")
    return [(item, rater, label) for _, item, rater, label in rows]


Row = tuple[int, str, str, str | None]


def _csv(path: Path, data: bytes) -> list[Row]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(str(path), f"not valid UTF-8: {error.reason}") from error
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
    records = csv_rows(path, text, dialect)
    first = next(records, None)
    header = first[1] if first is not None else []
    missing = [f for f in FIELDS if f not in header]
    if missing:
        raise InputError(
            str(path),
            f"missing column(s) {', '.join(missing)} (the header must name item, rater, label)",
            line=1,
        )
    rows: list[Row] = []
    width = len(header)
    where = [header.index(f) for f in FIELDS]
    for line, cells in records:
        if not cells:
            continue
        if len(cells) != width:
            raise InputError(
                str(path),
                f"the row has {len(cells)} cell(s) but the header has {width}: a ragged row "
                "(a stray or missing separator?)",
                line=line,
            )
        values = [cells[i].strip() for i in where]
        for name, value in zip(FIELDS[:2], values[:2], strict=True):
            if not value:
                raise InputError(str(path), "must not be empty", line=line, field=name)
        rows.append((line, values[0], _rater(path, values[1], line), values[2] or None))
    return rows


def _rater(path: Path, name: str, line: int) -> str:
    """A rater name checked like every name (`domain.names`)."""
    problem = name_problem(name)
    if problem is not None:
        raise InputError(str(path), f"the name {problem}", line=line, field="rater")
    return clean_name(name)


def _jsonl(path: Path, data: bytes) -> list[Row]:
    rows: list[Row] = []
    for line, obj in iter_objects(path, data):
        values: list[str | None] = []
        for name in FIELDS:
            if name not in obj:
                if name == "label":
                    values.append(None)
                    continue
                raise InputError(str(path), "missing", line=line, field=name)
            value = obj[name]
            if value is None or value == "":
                if name != "label":
                    raise InputError(str(path), "must not be empty", line=line, field=name)
                values.append(None)
            elif isinstance(value, str | int) and not isinstance(value, bool):
                values.append(str(value))
            else:
                raise InputError(
                    str(path), f"expected a string, got {type_name(value)}", line=line, field=name
                )
        item, rater, label = values
        assert item is not None and rater is not None
        rows.append((line, item, _rater(path, rater, line), label))
    return rows
