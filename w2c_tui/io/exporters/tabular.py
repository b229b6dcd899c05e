"""Rows written as JSONL, CSV, Parquet (pyarrow) or a Hugging Face dataset folder (`datasets`).

Every writer writes beside the target first and renames at the end, so a failed export leaves
nothing half-written. Parquet and `hf` need optional extras; without them a MissingExtraError
names the extra to install.
"""

from __future__ import annotations

import importlib
import json
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError, MissingExtraError
from w2c_tui.io.exporters.csv_writer import csv_text
from w2c_tui.io.exporters.records import jsonl_text


class ColumnType(StrEnum):
    """What a column holds (decides its Arrow type and its CSV cell)."""

    TEXT = "text"
    INT = "int"
    TEXT_LIST = "text_list"
    """A list of texts: JSON text in a CSV cell."""
    CODES = "codes"
    """A list of short names (flag codes): `a;b` in a CSV cell."""


@dataclass(frozen=True, slots=True)
class Column:
    """A named, typed column."""

    name: str
    type: ColumnType = ColumnType.TEXT


HF_MARKER = "state.json"
"""A file `Dataset.save_to_disk` writes: an existing folder with it may be replaced."""


def _arrow_schema(columns: Sequence[Column]) -> Any:
    pa = _pyarrow("parquet")
    types = {
        ColumnType.TEXT: pa.string(),
        ColumnType.INT: pa.int64(),
        ColumnType.TEXT_LIST: pa.list_(pa.string()),
        ColumnType.CODES: pa.list_(pa.string()),
    }
    return pa.schema([pa.field(c.name, types[c.type]) for c in columns])


def _pyarrow(extra: str) -> Any:
    try:
        import pyarrow
    except ImportError as error:
        raise MissingExtraError(
            f"this format needs pyarrow: pip install 'w2c-tui[{extra}]'"
        ) from error
    return pyarrow


def arrow_table(rows: Sequence[dict[str, Any]], columns: Sequence[Column], extra: str) -> Any:
    """The rows as a pyarrow Table with the columns' types."""
    pa = _pyarrow(extra)
    schema = _arrow_schema(columns)
    data = {c.name: [row.get(c.name) for row in rows] for c in columns}
    return pa.Table.from_pydict(data, schema=schema)


def _csv_rows(rows: Sequence[dict[str, Any]], columns: Sequence[Column]) -> list[dict[str, Any]]:
    """Lists as JSON text in CSV cells, except plain lists of codes (joined with ;)."""
    out = []
    for row in rows:
        cells = dict(row)
        for c in columns:
            value = cells.get(c.name)
            if (
                c.type is ColumnType.TEXT_LIST
                and value is not None
                and not c.name.startswith("flag")
            ):
                cells[c.name] = json.dumps(value, ensure_ascii=False)
        out.append(cells)
    return out


def _tmp(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")


def _write(path: Path, text: str) -> None:
    """UTF-8, line endings exactly as in `text` (no platform translation)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write(text)


TableWriter = Callable[[Sequence[dict[str, Any]], Sequence[Column], Path, Path], None]
"""Writes rows with their columns at a temporary path (the second) for a target (the first)."""


def _write_jsonl(
    rows: Sequence[dict[str, Any]], columns: Sequence[Column], path: Path, tmp: Path
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    names = [c.name for c in columns]
    _write(tmp, jsonl_text([{n: row.get(n) for n in names} for row in rows]))


def _write_csv(
    rows: Sequence[dict[str, Any]], columns: Sequence[Column], path: Path, tmp: Path
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(tmp, csv_text(_csv_rows(rows, columns), [c.name for c in columns]))


def _write_parquet(
    rows: Sequence[dict[str, Any]], columns: Sequence[Column], path: Path, tmp: Path
) -> None:
    table = arrow_table(rows, columns, "parquet")  # first: a missing extra leaves no trace
    import pyarrow.parquet as pq  # optional extra, loaded only for this format

    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, tmp)


def _write_hf(
    rows: Sequence[dict[str, Any]], columns: Sequence[Column], path: Path, tmp: Path
) -> None:
    table = arrow_table(rows, columns, "hf")  # first: a missing extra leaves no trace
    datasets = _datasets()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and not (path.is_dir() and (path / HF_MARKER).is_file()):
        raise InputError(str(path), "exists and is not a dataset folder: choose another -o")
    if tmp.exists():
        shutil.rmtree(tmp)
    dataset = datasets.Dataset(datasets.table.InMemoryTable(table))
    dataset.save_to_disk(str(tmp))


TABLE_FORMATS: dict[str, TableWriter] = {
    "jsonl": _write_jsonl,
    "csv": _write_csv,
    "parquet": _write_parquet,
    "hf": _write_hf,
}
"""The formats of table exports (items, the joined table): name → writer."""


def write_rows(
    rows: Sequence[dict[str, Any]], columns: Sequence[Column], fmt: str, path: Path
) -> Path:
    """Write `rows` as `fmt` (jsonl, csv, parquet, hf) at `path`; returns the temporary path
    that `commit` renames (so a caller can write several files and commit them together)."""
    writer = TABLE_FORMATS.get(fmt)
    if writer is None:
        raise ValueError(f"unknown format {fmt!r}")
    tmp = _tmp(path)
    writer(rows, columns, path, tmp)
    return tmp


def _datasets() -> Any:
    try:
        return importlib.import_module("datasets")
    except ImportError as error:
        raise MissingExtraError(
            "the hf format needs the datasets library: pip install 'w2c-tui[hf]'"
        ) from error


def commit(tmp: Path, path: Path) -> None:
    """Move a written temporary file or folder into place."""
    if tmp.is_dir():
        if path.exists():
            shutil.rmtree(path)
        tmp.rename(path)
    else:
        tmp.replace(path)


def write_text_tmp(text: str, path: Path) -> Path:
    """Write text beside `path`; `commit` puts it in place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp(path)
    _write(tmp, text)
    return tmp
