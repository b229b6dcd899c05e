"""Human labels made elsewhere (a spreadsheet, Label Studio): CSV or JSONL, validated at the edge.

Columns / keys: `uuid` (or `item`, `item_uuid`), `annotator`, `label`; optional
`target_model` (or `model`), `response_id`, `note`, `flags` (`a;b` in CSV, a list or `a;b`
in JSONL), `dataset`. A row with a target model labels that model's response to the item
(its latest, or `response_id`); without one it is an item-QA label. The label may be empty
on an item-QA row that only carries a note or flags.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.qa import QA_FLAG_CODES
from w2c_tui.domain.team import LabelRow
from w2c_tui.io.jsonl import iter_objects, read_bytes
from w2c_tui.io.validate import LABEL_NAMES, type_name

ALIASES = {
    "uuid": ("uuid", "item_uuid", "item"),
    "annotator": ("annotator", "rater"),
    "label": ("label",),
    "target_model": ("target_model", "model"),
    "response_id": ("response_id",),
    "note": ("note",),
    "flags": ("flags",),
    "dataset": ("dataset",),
}
REQUIRED = ("uuid", "annotator", "label")


def _text(value: Any, path: Path, line: int, field: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InputError(str(path), f"expected text, got {type_name(value)}", line, field)
    text = str(value).strip()
    return text or None


def _row(values: dict[str, Any], path: Path, line: int) -> LabelRow:
    got = {name: _text(values.get(name), path, line, name) for name in ALIASES if name != "flags"}
    for name in ("uuid", "annotator"):
        if not got[name]:
            raise InputError(str(path), "must not be empty", line, name)
    label: Label | None = None
    if got["label"]:
        try:
            label = Label.parse(str(got["label"]))
        except ValueError as error:
            raise InputError(
                str(path), f"unknown label {got['label']!r} (labels: {LABEL_NAMES})", line, "label"
            ) from error
    raw_flags = values.get("flags")
    if isinstance(raw_flags, list):
        flags = [_text(f, path, line, "flags") or "" for f in raw_flags]
    else:
        flags = (_text(raw_flags, path, line, "flags") or "").replace(",", ";").split(";")
    flags = [f.strip() for f in flags if f and f.strip()]
    for flag in flags:
        if flag not in QA_FLAG_CODES:
            raise InputError(str(path), f"unknown QA flag {flag!r}", line, "flags")
    response_id = None
    if got["response_id"]:
        try:
            response_id = int(str(got["response_id"]))
        except ValueError as error:
            raise InputError(str(path), "expected a whole number", line, "response_id") from error
    if (flags or got["note"]) and got["target_model"]:
        raise InputError(
            str(path), "notes and flags are about items: leave target_model empty", line, "note"
        )
    if label is None and not (flags or got["note"]):
        raise InputError(str(path), "empty: nothing to record on this line", line, "label")
    if label is None and got["target_model"]:
        raise InputError(str(path), "a response label must not be empty", line, "label")
    return LabelRow(
        line=line,
        uuid=str(got["uuid"]),
        annotator=str(got["annotator"]),
        label=label,
        target_model=got["target_model"],
        response_id=response_id,
        note=got["note"],
        flags=tuple(dict.fromkeys(flags)),
        dataset=got["dataset"],
    )


def _canonical(keys: list[str], path: Path, *, header: bool = True) -> dict[str, str]:
    """Column name → canonical field (aliases resolved); a header without the required
    columns is refused (JSONL lines are checked one by one instead)."""
    out: dict[str, str] = {}
    for name, aliases in ALIASES.items():
        for alias in aliases:
            if alias in keys:
                out[alias] = name
                break
    missing = [n for n in REQUIRED if n not in out.values()]
    if missing and header:
        raise InputError(
            str(path),
            f"missing column(s) {', '.join(missing)} (needed: uuid, annotator, label)",
            line=1,
        )
    return out


def _csv(path: Path, data: bytes) -> list[LabelRow]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(str(path), f"not valid UTF-8: {error.reason}", line=line) from error
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
    reader = csv.reader(io.StringIO(text, newline=""), dialect=dialect)
    header = next(reader, None)
    if header is None:
        raise InputError(str(path), "the file is empty")
    header = [h.strip() for h in header]
    fields = _canonical(header, path)
    rows = []
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise InputError(
                str(path), f"{len(cells)} cells where the header has {len(header)}", line=line
            )
        values = {fields[h]: c for h, c in zip(header, cells, strict=True) if h in fields}
        rows.append(_row(values, path, line))
    return rows


def _jsonl(path: Path, data: bytes) -> list[LabelRow]:
    rows = []
    for line, obj in iter_objects(path, data):
        fields = _canonical(list(obj), path, header=False)
        values = {fields[k]: v for k, v in obj.items() if k in fields}
        for name in REQUIRED:
            if name not in values:
                raise InputError(str(path), "missing required field", line, name)
        rows.append(_row(values, path, line))
    return rows


def read_label_file(path: Path) -> list[LabelRow]:
    """Every row, validated; the same annotator and unit twice with different contents is an
    error naming both lines."""
    data = read_bytes(path)
    is_csv = path.suffix.lower() in {".csv", ".tsv"}
    rows = _csv(path, data) if is_csv else _jsonl(path, data)
    if not rows:
        raise InputError(str(path), "no labels in the file")
    seen: dict[tuple[str, str, str | None, int | None], LabelRow] = {}
    for row in rows:
        first = seen.get(row.unit)
        if first is not None and (first.label, first.note, first.flags) != (
            row.label,
            row.note,
            row.flags,
        ):
            raise InputError(
                str(path),
                f"{row.annotator} labels this unit differently on line {first.line}",
                line=row.line,
                field="label",
            )
        seen.setdefault(row.unit, row)
    return rows
