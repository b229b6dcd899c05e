"""Merging CriticTool labels (`critic_label`) of people, with their history, as verdicts are
merged (`history.py`): a row's unit is (rater, item, the judged prediction's response) and
it records an answer set."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlmodel import col, select

from w2c_tui.db.common import chunked
from w2c_tui.db.merge.base import Merger, ResponseKey, Source
from w2c_tui.db.merge.history import History, Row, apply, as_row, plan
from w2c_tui.db.tables import CriticLabelRow

CriticUnit = tuple[int, int, int | None]
"""(rater id, item id, response id)."""


def read_critic_labels(
    source: Source,
    rows: Any,
    raters: dict[int, Any],
    items: dict[int, tuple[str, str]],
    responses: dict[int, ResponseKey],
) -> None:
    """People's CriticTool labels of the source, by identity, oldest first."""
    query = select(CriticLabelRow).where(col(CriticLabelRow.rater_id).in_(list(raters)))
    for row in rows(query.order_by(col(CriticLabelRow.created_at), col(CriticLabelRow.id))):
        dataset, uuid = items[row.item_id]
        source.critic_labels.append(
            {
                "rater": raters[row.rater_id].key,
                "dataset": dataset,
                "uuid": uuid,
                "response": responses[row.response_id] if row.response_id else None,
                "answers_json": row.answers_json,
                "source": row.source,
                "seen": row.seen,
                "raw": row.raw,
                "is_current": bool(row.is_current),
                "created_at": row.created_at,
            }
        )


CRITIC_LABELS = History(
    table=CriticLabelRow,
    recorded=("answers_json",),
    shown=lambda row: f"CriticTool {row['answers_json']}",
    model=lambda row: row["response"][1] if row["response"] else None,
)


def _existing(m: Merger, units: set[CriticUnit]) -> dict[CriticUnit, list[Row]]:
    raters = sorted({u[0] for u in units})
    found: dict[CriticUnit, list[Row]] = defaultdict(list)
    for chunk in chunked(sorted({u[1] for u in units})):
        query = select(CriticLabelRow).where(
            col(CriticLabelRow.rater_id).in_(raters), col(CriticLabelRow.item_id).in_(chunk)
        )
        for (row,) in m.s.execute(query):
            unit = (row.rater_id, row.item_id, row.response_id)
            if unit in units:
                found[unit].append(as_row(row))
    return found


def _values(unit: CriticUnit, row: Row, current: bool, superseded: Row | None) -> dict[str, Any]:
    rater, item, response = unit
    return {
        "rater_id": rater,
        "item_id": item,
        "response_id": response,
        "answers_json": row["answers_json"],
        "source": row["source"],
        "seen": row["seen"],
        "raw": row["raw"],
        "supersedes_id": superseded["id"] if current and superseded is not None else None,
        "is_current": current,
        "created_at": row["created_at"],
    }


def merge_critic_labels(m: Merger) -> None:
    """Add the source's CriticTool labels to the target (see the module's docstring)."""
    by_unit: dict[CriticUnit, list[Row]] = defaultdict(list)
    for row in m.src.critic_labels:
        rater, item, _, response = m.unit({**row, "model": None})
        by_unit[(rater, item, response)].append(row)
    if not by_unit:
        return
    changes = plan(m, CRITIC_LABELS, by_unit, _existing(m, set(by_unit)), _values)
    apply(m, CRITIC_LABELS, changes)
    m.out.critic_labels = len(changes.new_rows)
    m.out.critic_labels_known = changes.known
