"""Merging When2Call labels (people's labels and adjudications; `db.when2call_labels`) with
their history, unit by unit (`history.py`): a When2Call label's unit is (rater, item, target
model, response) and it records a label and a status."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlmodel import select

from w2c_tui.db.common import chunked
from w2c_tui.db.merge.base import Merger, Unit
from w2c_tui.db.merge.history import History, Row, apply, as_row, plan
from w2c_tui.db.tables import LabelRow
from w2c_tui.db.when2call_labels import QUESTION, schema_for, when2call

VERDICTS = History(
    table=LabelRow,
    recorded=("value", "status"),
    shown=lambda row: row["value"],
    model=lambda row: row["model"],
)


def _existing(m: Merger, units: set[Unit]) -> dict[Unit, list[Row]]:
    """The target's verdicts on these units, by unit."""
    raters = sorted({u[0] for u in units})
    items = sorted({u[1] for u in units})
    found: dict[Unit, list[Row]] = defaultdict(list)
    for chunk in chunked(items):
        query = select(LabelRow).where(
            LabelRow.rater_id.in_(raters),  # type: ignore[attr-defined]
            LabelRow.item_id.in_(chunk),  # type: ignore[attr-defined]
            when2call(),
        )
        for (row,) in m.s.execute(query):
            unit = (row.rater_id, row.item_id, row.target_model_id, row.response_id)
            if unit in units:
                found[unit].append(as_row(row))
    return found


def merge_verdicts(m: Merger) -> None:
    """Add the source's verdicts to the target (see the module's docstring)."""
    by_unit: dict[Unit, list[Row]] = defaultdict(list)
    for row in m.src.verdicts:
        by_unit[m.unit(row)].append(row)
    if not by_unit:
        return
    guidelines: dict[tuple[str, str], int | None] = {}

    def values(unit: Unit, row: Row, current: bool, superseded: Row | None) -> dict[str, Any]:
        return _values(m, unit, row, current, superseded, guidelines)

    changes = plan(m, VERDICTS, by_unit, _existing(m, set(by_unit)), values)
    apply(m, VERDICTS, changes)
    m.out.verdicts = len(changes.new_rows)
    m.out.verdicts_known = changes.known


def _values(
    m: Merger,
    unit: Unit,
    row: Row,
    current: bool,
    superseded: Row | None,
    guidelines: dict[tuple[str, str], int | None],
) -> dict[str, Any]:
    """The target's columns for a source verdict."""
    guideline = None
    if row["guideline"] is not None:
        key = (row["dataset"], row["guideline"][1])
        if key not in guidelines:
            guidelines[key] = m.guideline_id(*key)
        guideline = guidelines[key]
    rater, item, model, response = unit
    return {
        "rater_id": rater,
        "item_id": item,
        "target_model_id": model,
        "response_id": response,
        "schema_name": schema_for(model, response),
        "question": QUESTION,
        "value": row["value"],
        "status": row["status"],
        "raw": row["raw"],
        "scores_json": row["scores_json"],
        "run_id": None,
        "source": row["source"],
        "supersedes_id": superseded["id"] if current and superseded is not None else None,
        "is_current": current,
        "created_at": row["created_at"],
        "seen": row["seen"],
        "guideline_id": guideline,
    }
