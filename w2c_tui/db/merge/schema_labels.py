"""Merging label schemas (`label_schema`) and their answers (`label`).

A schema is known by its name. The same name with the same questions changes nothing; where
one side's schema keeps every question and option of the other's (`LabelSchema.extends`, the
rule `w2c schemas add` applies to a schema with labels) the larger one is kept; any other
difference is refused by name, with both files named, and nothing is merged.

Answers of every schema (When2Call's and CriticTool's built-ins included) are merged with their
history (`history.py`): an answer's unit is (rater, item, target model, response, schema,
question) and it records a value (None: withdrawn) and, for When2Call labels, a status. The
counts keep When2Call labels apart (`Counts.verdicts`) from other schemas' answers, and a
conflict shows a When2Call label as the label alone, any other answer as schema.question=value.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import insert, update
from sqlmodel import col, select

from w2c_tui.db.checklist import NOTE
from w2c_tui.db.checklist import SCHEMA as CHECKLIST_SCHEMA
from w2c_tui.db.common import chunked
from w2c_tui.db.merge.base import TARGET, Merger, ResponseKey, Source
from w2c_tui.db.merge.history import History, Row, apply, as_row, plan
from w2c_tui.db.tables import LabelRow, LabelSchemaRow
from w2c_tui.db.when2call_labels import QUESTION, SCHEMAS
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.schema_builtins import BUILTIN_SCHEMAS
from w2c_tui.domain.schema_toml import parse_schema

LabelUnit = tuple[int, int, int | None, int | None, str, str]
"""(rater id, item id, target model id, response id, schema name, question)."""


def read_schema_labels(
    source: Source,
    rows: Any,
    raters: dict[int, Any],
    items: dict[int, tuple[str, str]],
    models: dict[int, str],
    responses: dict[int, ResponseKey],
    guidelines: dict[int, Any],
) -> None:
    """The source's label schemas (name → TOML) and people's answers of every schema (their
    When2Call labels and adjudications included), oldest first."""
    for row in rows(select(LabelSchemaRow).order_by(col(LabelSchemaRow.name))):
        source.label_schemas[row.name] = row.toml
    query = select(LabelRow).where(col(LabelRow.rater_id).in_(list(raters)))
    for row in rows(query.order_by(col(LabelRow.created_at), col(LabelRow.id))):
        dataset, uuid = items[row.item_id]
        guideline = guidelines.get(row.guideline_id)
        source.schema_labels.append(
            {
                "rater": raters[row.rater_id].key,
                "dataset": dataset,
                "uuid": uuid,
                "model": models[row.target_model_id] if row.target_model_id else None,
                "response": responses[row.response_id] if row.response_id else None,
                "schema_name": row.schema_name,
                "question": row.question,
                "value": row.value,
                "source": row.source,
                "seen": row.seen,
                "raw": row.raw,
                "status": row.status,
                "scores_json": row.scores_json,
                "guideline": (guideline.version, guideline.sha256) if guideline else None,
                "is_current": bool(row.is_current),
                "created_at": row.created_at,
            }
        )


def merge_label_schemas(m: Merger) -> None:
    """Add the source's schemas the target lacks; keep the larger of two that differ only by
    additions; refuse any other difference (InputError naming both sides)."""
    path = str(m.src.path)
    for name, toml in sorted(m.src.label_schemas.items()):
        theirs = parse_schema(toml, f"{path}: label_schema {name!r}")
        row = m.s.execute(select(LabelSchemaRow).where(col(LabelSchemaRow.name) == name)).first()
        if row is None:
            m.s.execute(
                insert(LabelSchemaRow).values(name=name, toml=toml, parsed_json=theirs.to_json())
            )
            m.origins[("label_schema", name)] = path
            m.out.schemas += 1
            continue
        ours_row = row[0]
        ours = parse_schema(ours_row.toml, f"label_schema {name!r}")
        if ours == theirs or ours.extends(theirs) is None:
            continue  # the same, or the target's already holds every question of the source's
        why = theirs.extends(ours)
        if why is not None:
            other = m.origins.get(("label_schema", name), TARGET)
            raise InputError(
                path,
                f"label schema {name!r} differs from the one in {other}: in {path} {why}; "
                "a schema may only grow by questions and options (give one of them a new "
                "name); nothing was merged",
                field="label_schema",
            )
        m.s.execute(
            update(LabelSchemaRow)
            .where(col(LabelSchemaRow.id) == ours_row.id)
            .values(toml=toml, parsed_json=theirs.to_json())
        )
        m.origins[("label_schema", name)] = path
        m.out.schemas += 1


def _is_when2call(row: Row) -> bool:
    return row["schema_name"] in SCHEMAS and row["question"] == QUESTION


def _part(row: Row) -> str:
    """Which count a row adds to: When2Call labels, checklist flags, notes, other answers."""
    if _is_when2call(row):
        return "verdicts"
    if row["schema_name"] == CHECKLIST_SCHEMA:
        return "notes" if row["question"] == NOTE else "flags"
    return "schema_labels"


def _shown(row: Row) -> str | None:
    if _is_when2call(row):
        return row["value"]  # type: ignore[no-any-return]
    return f"{row['schema_name']}.{row['question']}={row['value'] or '(withdrawn)'}"


SCHEMA_LABELS = History(
    table=LabelRow,
    recorded=("value", "status"),
    shown=_shown,
    model=lambda row: row["model"] or (row["response"][1] if row["response"] else None),
)


def _existing(m: Merger, units: set[LabelUnit]) -> dict[LabelUnit, list[Row]]:
    """The target's answers on these units, by unit."""
    raters = sorted({u[0] for u in units})
    found: dict[LabelUnit, list[Row]] = defaultdict(list)
    for chunk in chunked(sorted({u[1] for u in units})):
        query = select(LabelRow).where(
            col(LabelRow.rater_id).in_(raters), col(LabelRow.item_id).in_(chunk)
        )
        for (row,) in m.s.execute(query):
            unit = (
                row.rater_id,
                row.item_id,
                row.target_model_id,
                row.response_id,
                row.schema_name,
                row.question,
            )
            if unit in units:
                found[unit].append(as_row(row))
    return found


def _known_schemas(m: Merger) -> set[str]:
    names = {r[0] for r in m.s.execute(select(LabelSchemaRow.name))}
    return names | set(BUILTIN_SCHEMAS)


def merge_schema_labels(m: Merger) -> None:
    """Add the source's answers to the target (see the module's docstring)."""
    if not m.src.schema_labels:
        return
    known = _known_schemas(m)
    missing = sorted({r["schema_name"] for r in m.src.schema_labels} - known)
    if missing:
        raise InputError(
            str(m.src.path),
            f"answers of label schema(s) {', '.join(missing)} that neither database holds; "
            "nothing was merged",
            field="label.schema_name",
        )
    by_unit: dict[LabelUnit, list[Row]] = defaultdict(list)
    for row in m.src.schema_labels:
        rater, item, model, response = m.unit(row)
        by_unit[(rater, item, model, response, row["schema_name"], row["question"])].append(row)
    guidelines: dict[tuple[str, str], int | None] = {}

    def values(unit: LabelUnit, row: Row, current: bool, superseded: Row | None) -> dict[str, Any]:
        guideline = None
        if row["guideline"] is not None:
            key = (row["dataset"], row["guideline"][1])
            if key not in guidelines:
                guidelines[key] = m.guideline_id(*key)
            guideline = guidelines[key]
        rater, item, model, response, schema, question = unit
        return {
            "rater_id": rater,
            "item_id": item,
            "target_model_id": model,
            "response_id": response,
            "schema_name": schema,
            "question": question,
            "value": row["value"],
            "status": row["status"],
            "scores_json": row["scores_json"],
            "run_id": None,
            "source": row["source"],
            "seen": row["seen"],
            "raw": row["raw"],
            "guideline_id": guideline,
            "supersedes_id": superseded["id"] if current and superseded is not None else None,
            "is_current": current,
            "created_at": row["created_at"],
        }

    existing = _existing(m, set(by_unit))
    for part_name in ("verdicts", "flags", "notes", "schema_labels"):  # one rule; counted apart
        part = {u: rows for u, rows in by_unit.items() if _part(rows[0]) == part_name}
        changes = plan(m, SCHEMA_LABELS, part, existing, values)
        apply(m, SCHEMA_LABELS, changes)
        setattr(m.out, part_name, len(changes.new_rows))
        if part_name in ("verdicts", "schema_labels"):
            setattr(m.out, f"{part_name}_known", changes.known)
