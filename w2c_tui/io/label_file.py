"""Human labels made elsewhere (a spreadsheet, Label Studio): CSV or JSONL, validated at the edge.

Columns / keys: `uuid` (or `item`, `item_uuid`), `annotator`, `label`; optional
`target_model` (or `model`), `response_id`, `note`, `flags` (`a;b` in CSV, a list or `a;b`
in JSONL), `dataset`, `status`. A row with a target model labels that model's response to the
item (its latest, or `response_id`); without one it is an item-QA label. The label may be empty
on an item-QA row that only carries a note or flags, or on a row whose status is `missing`
(a withdrawn label, as `w2c labels export` writes it).

Names (annotator, target model, dataset) are checked by `domain.names` (no control characters,
at most 200 characters, NFC); notes may hold tabs and newlines but no other control character.
CSV cells that `labels export` defused against spreadsheet formulas (`'=…`) are read back as
they were exported (`csvcell.unsafe_cell`), so an export imported again changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.names import clean_name, name_problem, note_problem
from w2c_tui.domain.qa import QA_FLAG_CODES
from w2c_tui.domain.refusals import refused_rows
from w2c_tui.domain.team import LabelRow
from w2c_tui.io.csvcell import csv_rows, unsafe_cell
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
    "status": ("status",),
}
NAMES = ("annotator", "target_model", "dataset")
"""Fields that hold names (checked by `domain.names`)."""
REQUIRED = ("uuid", "annotator", "label")
MAX_ID = 2**63 - 1
"""The largest id a database integer column holds."""


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
    for name in NAMES:
        value = got[name]
        if value is not None:
            problem = name_problem(value)
            if problem is not None:
                raise InputError(str(path), f"the name {problem}", line, name)
            got[name] = clean_name(value)
    if got["uuid"] and name_problem(got["uuid"]) is not None:
        raise InputError(str(path), f"the uuid {name_problem(got['uuid'])}", line, "uuid")
    raw_note = values.get("note")
    if isinstance(raw_note, str) and raw_note.strip():
        problem = note_problem(raw_note)
        if problem is not None:
            raise InputError(str(path), f"the note {problem}", line, "note")
        got["note"] = raw_note.replace("\r\n", "\n").strip()
    status = (got["status"] or "").lower()
    if status not in ("", "ok", "missing"):
        raise InputError(
            str(path), f"unknown status {got['status']!r} (ok or missing)", line, "status"
        )
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
        if not 0 < response_id <= MAX_ID:
            raise InputError(str(path), f"{response_id} is not a response id", line, "response_id")
    if (flags or got["note"]) and got["target_model"]:
        raise InputError(
            str(path), "notes and flags are about items: leave target_model empty", line, "note"
        )
    withdrawn = label is None and status == "missing"
    if label is not None and status == "missing":
        raise InputError(str(path), "a label with status missing", line, "status")
    if label is None and not (flags or got["note"] or withdrawn):
        raise InputError(str(path), "empty: nothing to record on this line", line, "label")
    if label is None and got["target_model"] and not withdrawn:
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
        withdrawn=withdrawn,
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
    records = csv_rows(path, text, dialect)
    first = next(records, None)
    if first is None:
        raise InputError(str(path), "the file is empty")
    header = [h.strip() for h in first[1]]
    fields = _canonical(header, path)
    rows: list[LabelRow] = []
    refused: list[InputError] = []
    for line, raw_cells in records:
        cells = [unsafe_cell(c) for c in raw_cells]
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            refused.append(
                InputError(
                    str(path), f"{len(cells)} cells where the header has {len(header)}", line=line
                )
            )
            continue
        values = {fields[h]: c for h, c in zip(header, cells, strict=True) if h in fields}
        _add(rows, refused, values, path, line)
    return _checked(path, rows, refused)


def _jsonl(path: Path, data: bytes) -> list[LabelRow]:
    rows: list[LabelRow] = []
    refused: list[InputError] = []
    for line, obj in iter_objects(path, data):
        fields = _canonical(list(obj), path, header=False)
        values = {fields[k]: v for k, v in obj.items() if k in fields}
        missing = [name for name in REQUIRED if name not in values]
        if missing:
            refused.append(InputError(str(path), "missing required field", line, missing[0]))
            continue
        _add(rows, refused, values, path, line)
    return _checked(path, rows, refused)


def _add(
    rows: list[LabelRow],
    refused: list[InputError],
    values: dict[str, Any],
    path: Path,
    line: int,
) -> None:
    """The row appended to `rows`, or why not to `refused`."""
    try:
        rows.append(_row(values, path, line))
    except InputError as error:
        refused.append(error)


def _checked(path: Path, rows: list[LabelRow], refused: list[InputError]) -> list[LabelRow]:
    """`rows` when no row was refused; else one error naming every refused row."""
    if refused:
        raise refused_rows(str(path), refused)
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
