"""Merging CriticTool labels (`critic_label`) of people, as verdicts are merged.

A row is identified by its unit (rater, item, judged prediction's response), its answers and
when it was made. Every row of the source that the target lacks is added; per unit, of the
target's current row and the source's, the later is current and the other stays as history;
different answers are a conflict, reported with both. Demotions run before the inserts and
promotions after them, so `uq_critic_label_current` holds after every statement.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, update
from sqlmodel import col, select

from w2c_tui.db.common import chunked
from w2c_tui.db.tables_team import CriticLabelRow

if TYPE_CHECKING:
    from w2c_tui.db.merge_read import ResponseKey, Source
    from w2c_tui.db.merge_write import Merger

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


def _unit(m: Merger, row: dict[str, Any]) -> CriticUnit:
    rater, item, _, response = m.unit({**row, "model": None})
    return (rater, item, response)


def _existing(m: Merger, units: set[CriticUnit]) -> dict[CriticUnit, list[Any]]:
    raters = sorted({u[0] for u in units})
    found: dict[CriticUnit, list[Any]] = defaultdict(list)
    for chunk in chunked(sorted({u[1] for u in units})):
        query = select(CriticLabelRow).where(
            col(CriticLabelRow.rater_id).in_(raters), col(CriticLabelRow.item_id).in_(chunk)
        )
        for (row,) in m.s.execute(query):
            unit = (row.rater_id, row.item_id, row.response_id)
            if unit in units:
                found[unit].append(row)
    return found


def merge_critic_labels(m: Merger) -> None:
    """Add the source's CriticTool labels to the target (see the module's docstring)."""
    from w2c_tui.db.merge_write import Conflict, moment

    by_unit: dict[CriticUnit, list[dict[str, Any]]] = defaultdict(list)
    for row in m.src.critic_labels:
        by_unit[_unit(m, row)].append(row)
    if not by_unit:
        return
    existing = _existing(m, set(by_unit))
    demote: list[int] = []
    promote: list[int] = []
    new_rows: list[dict[str, Any]] = []
    for unit, rows in by_unit.items():
        have = existing.get(unit, [])
        known = {(r.answers_json, moment(r.created_at)): r for r in have}
        current = next((r for r in have if r.is_current), None)
        mine = next((r for r in rows if r["is_current"]), None)
        winner_new = False
        if mine is not None:
            mine_id = (mine["answers_json"], moment(mine["created_at"]))
            same = current is not None and (current.answers_json, moment(current.created_at)) == (
                mine_id
            )
            later = current is None or moment(mine["created_at"]) > moment(current.created_at)
            differ = current is not None and mine["answers_json"] != current.answers_json
            if not same and differ and (later or mine_id not in known):
                assert current is not None
                ours = (current.answers_json, current.created_at, "the target")
                theirs = (mine["answers_json"], mine["created_at"], str(m.src.path))
                kept, lost = (theirs, ours) if later else (ours, theirs)
                m.out.conflicts.append(
                    Conflict(
                        rater=m.src.raters[mine["rater"]]["name"],
                        uuid=mine["uuid"],
                        model=mine["response"][1] if mine["response"] else None,
                        kept=f"CriticTool {kept[0]}",
                        kept_at=kept[1],
                        lost=f"CriticTool {lost[0]}",
                        lost_at=lost[1],
                        lost_from=lost[2],
                    )
                )
            if not same and later:
                if current is not None:
                    demote.append(current.id)
                if mine_id in known:  # there already, as history: current again
                    promote.append(known[mine_id].id)
                else:
                    winner_new = True
        for row in rows:
            key = (row["answers_json"], moment(row["created_at"]))
            if key in known:
                m.out.critic_labels_known += 1
                continue
            known[key] = None
            is_winner = winner_new and row is mine
            rater, item, response = unit
            new_rows.append(
                {
                    "rater_id": rater,
                    "item_id": item,
                    "response_id": response,
                    "answers_json": row["answers_json"],
                    "source": row["source"],
                    "seen": row["seen"],
                    "raw": row["raw"],
                    "supersedes_id": current.id if is_winner and current is not None else None,
                    "is_current": is_winner,
                    "created_at": row["created_at"],
                }
            )
    label = col(CriticLabelRow.id)
    for row_id in demote:
        m.s.execute(update(CriticLabelRow).where(label == row_id).values(is_current=False))
    if new_rows:
        m.s.execute(insert(CriticLabelRow), new_rows)
    for row_id in promote:
        m.s.execute(update(CriticLabelRow).where(label == row_id).values(is_current=True))
    m.out.critic_labels = len(new_rows)
