"""Schema labels in CSV: `annotator, item, response, <one column per question>` (optional
`dataset`), validated at the edge against the schema with errors naming file:line:field.

An empty question cell is no answer (it withdraws nothing). `item` is the item's uuid (`uuid`
and `item_uuid` are accepted too), `response` a response id or empty for item units. The
writer writes the same columns, so an export imported again changes nothing. `answers_jsonl`
writes the same fields as JSON lines (the response id a number, no answer null), and a `.jsonl`
file is read back the same way: each line one object with those keys.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.names import name_problem
from w2c_tui.domain.refusals import refused_rows
from w2c_tui.domain.schema_labels import AnswerLine, UnitAnswers
from w2c_tui.domain.schemas import LabelSchema
from w2c_tui.io.csvcell import csv_rows, safe_row, unsafe_cell
from w2c_tui.io.jsonl import read_bytes

UNIT_COLUMNS = ("annotator", "dataset", "item", "response")
ITEM_ALIASES = ("item", "uuid", "item_uuid")
MAX_ID = 2**63 - 1


def _columns(header: list[str], schema: LabelSchema, path: str, line: int = 1) -> dict[str, int]:
    """Column name → index; InputError (at `line`, the header's) for a missing or unknown
    column."""
    where: dict[str, int] = {}
    for index, name in enumerate(header):
        key = "item" if name in ITEM_ALIASES else name
        if key in where:
            raise InputError(path, f"the column {name!r} appears twice", line, name)
        if key not in UNIT_COLUMNS and key not in schema.names:
            known = ", ".join((*UNIT_COLUMNS, *schema.names))
            raise InputError(path, f"unknown column {name!r} (columns: {known})", line, name)
        where[key] = index
    missing = [n for n in ("annotator", "item") if n not in where]
    if schema.unit.has_response and "response" not in where:
        missing.append("response")
    if missing:
        raise InputError(path, f"missing column(s) {', '.join(missing)}", line)
    if not any(n in where for n in schema.names):
        raise InputError(path, f"no question column (questions: {', '.join(schema.names)})", line)
    return where


def _line(
    cells: list[str], where: dict[str, int], schema: LabelSchema, path: str, line: int
) -> AnswerLine:
    def cell(name: str) -> str:
        return cells[where[name]].strip() if name in where else ""

    for name in ("annotator", "item"):
        if not cell(name):
            raise InputError(path, "must not be empty", line, name)
        problem = name_problem(cell(name))
        if problem is not None:
            raise InputError(path, f"the name {problem}", line, name)
    response: int | None = None
    text = cell("response")
    if schema.unit.has_response and not text:
        raise InputError(path, f"a {schema.unit.value} unit needs a response id", line, "response")
    if not schema.unit.has_response and text:
        raise InputError(path, "item units have no response: leave it empty", line, "response")
    if text:
        if not text.isdigit() or not 0 < int(text) <= MAX_ID:
            raise InputError(path, f"{text!r} is not a response id", line, "response")
        response = int(text)
    answers: dict[str, str] = {}
    for question in schema.questions:
        value = cell(question.name)
        if not value:
            continue
        try:
            answers[question.name] = question.check(value)
        except ValueError as error:
            raise InputError(path, str(error), line, question.name) from None
    for question in schema.questions:  # "no error" is category none
        chosen = question.option(answers.get(question.name, ""))
        if chosen is None:
            continue
        for name, value in chosen.implies:
            if answers.setdefault(name, value) != value:
                why = f"must be {value!r} when {question.name} is {chosen.value!r}"
                raise InputError(path, why, line, name)
    return AnswerLine(
        line=line,
        annotator=cell("annotator"),
        item_uuid=cell("item"),
        response_id=response,
        answers=answers,
        dataset=cell("dataset") or None,
    )


Rows = Iterator[tuple[int, dict[str, int], list[str]] | InputError]
"""A label file's rows as (line, column → index, cells), or the error of a row refused."""


def _csv_rows(path: Path, text: str, schema: LabelSchema) -> Rows:
    records = csv_rows(path, text, "excel-tab" if path.suffix.lower() == ".tsv" else "excel")
    first = next(records, None)
    if first is None:
        raise InputError(str(path), "the file is empty")
    header = [h.strip() for h in first[1]]
    where = _columns(header, schema, str(path))
    for line, raw in records:
        cells = [unsafe_cell(c) for c in raw]
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            message = f"{len(cells)} cells where the header has {len(header)}"
            yield InputError(str(path), message, line)
            continue
        yield line, where, cells


def _json_cell(value: object, path: str, line: int, key: str) -> str:
    """A JSON value as the CSV cell it stands for: null is empty, a whole number its digits."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise InputError(path, f"must be text, a whole number or null, not {value!r}", line, key)


def _jsonl_rows(path: Path, text: str, schema: LabelSchema) -> Rows:
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as error:
            yield InputError(str(path), f"not JSON: {error.msg}", line)
            continue
        if not isinstance(record, dict):
            yield InputError(str(path), "each line must be a JSON object", line)
            continue
        try:
            header = [str(key) for key in record]
            where = _columns(header, schema, str(path), line)
            cells = [_json_cell(record[key], str(path), line, key) for key in record]
        except InputError as error:
            yield error
            continue
        yield line, where, cells


def read_answers(path: Path, schema: LabelSchema) -> list[AnswerLine]:
    """Every row of the CSV (or, for `.jsonl`, JSON lines) file at `path`, checked against
    `schema`; all refused rows named in one InputError. The same annotator and unit on two
    lines is refused."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(str(path), f"not valid UTF-8: {error.reason}", line=line) from error
    jsonl = path.suffix.lower() in {".jsonl", ".ndjson"}
    rows = _jsonl_rows(path, text, schema) if jsonl else _csv_rows(path, text, schema)
    out: list[AnswerLine] = []
    refused: list[InputError] = []
    seen: dict[tuple[str, str | None, str, int | None], int] = {}
    for found in rows:
        if isinstance(found, InputError):
            refused.append(found)
            continue
        line, where, cells = found
        try:
            row = _line(cells, where, schema, str(path), line)
        except InputError as error:
            refused.append(error)
            continue
        key = (row.annotator, row.dataset, row.item_uuid, row.response_id)
        if key in seen:
            message = f"{row.annotator} labels this unit on line {seen[key]} already"
            refused.append(InputError(str(path), message, line, "item"))
            continue
        seen[key] = line
        out.append(row)
    if refused:
        raise refused_rows(str(path), refused)
    if not out:
        raise InputError(str(path), "no labels in the file")
    return out


def answers_csv(schema: LabelSchema, labels: Sequence[UnitAnswers]) -> str:
    """`labels` as CSV with the columns `read_answers` takes (cells that a spreadsheet would
    run as formulas defused)."""
    buffer = io.StringIO(newline="")
    fields = [*UNIT_COLUMNS, *schema.names]
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for label in labels:
        row: dict[str, object] = {
            "annotator": label.annotator,
            "dataset": label.dataset,
            "item": label.item_uuid,
            "response": label.unit.response_id if label.unit.response_id is not None else "",
        }
        row.update({name: label.answers.get(name, "") for name in schema.names})
        writer.writerow(safe_row(row))
    return buffer.getvalue()


def answers_jsonl(schema: LabelSchema, labels: Sequence[UnitAnswers]) -> str:
    """`labels` as JSON lines: the CSV's fields, the response id a number (null for item
    units) and a question with no answer null."""
    lines = []
    for label in labels:
        record: dict[str, object] = {
            "annotator": label.annotator,
            "dataset": label.dataset,
            "item": label.item_uuid,
            "response": label.unit.response_id,
        }
        record.update({name: label.answers.get(name) for name in schema.names})
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines)
