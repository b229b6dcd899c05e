"""Merging verdicts (labels and adjudications) with their history, unit by unit.

A verdict is identified by its unit, its label, its status and when it was made. Every verdict
of the source that the target lacks is added; then, per unit, of the target's current verdict
and the source's, the later one is current and the other stays as history. When the two carry
different labels that is a conflict, reported with both. Demotions run before the inserts and
promotions after them, so the database's "one current verdict per rater and unit" holds after
every statement.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert
from sqlmodel import select

from w2c_tui.db.common import chunked
from w2c_tui.db.tables import VerdictRow

if TYPE_CHECKING:
    from w2c_tui.db.merge_write import Merger, Unit

Identity = tuple[str | None, str, Any]
"""(label, status, moment made)."""


def _identity(label: str | None, status: str, created_at: Any) -> Identity:
    from w2c_tui.db.merge_write import moment

    return (label, status, moment(created_at))


def _existing(m: Merger, units: set[Unit]) -> dict[Unit, list[Any]]:
    """The target's verdicts on these units, by unit."""
    raters = sorted({u[0] for u in units})
    items = sorted({u[1] for u in units})
    found: dict[Unit, list[Any]] = defaultdict(list)
    for chunk in chunked(items):
        query = select(VerdictRow).where(
            VerdictRow.rater_id.in_(raters),  # type: ignore[attr-defined]
            VerdictRow.item_id.in_(chunk),  # type: ignore[attr-defined]
        )
        for (row,) in m.s.execute(query):
            unit = (row.rater_id, row.item_id, row.target_model_id, row.response_id)
            if unit in units:
                found[unit].append(row)
    return found


def merge_verdicts(m: Merger) -> None:
    """Add the source's verdicts to the target (see the module's docstring)."""
    from w2c_tui.db.merge_write import Conflict, moment

    by_unit: dict[Unit, list[dict[str, Any]]] = defaultdict(list)
    for row in m.src.verdicts:
        by_unit[m.unit(row)].append(row)
    if not by_unit:
        return
    existing = _existing(m, set(by_unit))
    guidelines: dict[tuple[str, str], int | None] = {}
    demote: list[int] = []
    promote: list[int] = []
    new_rows: list[dict[str, Any]] = []
    for unit, rows in by_unit.items():
        have = existing.get(unit, [])
        known = {_identity(r.label, r.status, r.created_at): r for r in have}
        current = next((r for r in have if r.is_current), None)
        mine = next((r for r in rows if r["is_current"]), None)
        winner_new = False
        if mine is not None:
            mine_id = _identity(mine["label"], mine["status"], mine["created_at"])
            same = (
                current is not None
                and _identity(current.label, current.status, current.created_at) == mine_id
            )
            later = current is None or moment(mine["created_at"]) > moment(current.created_at)
            differ = current is not None and (mine["label"], mine["status"]) != (
                current.label,
                current.status,
            )
            if not same and differ and (later or mine_id not in known):  # news, not a re-merge
                assert current is not None
                kept, lost = (mine, current) if later else (current, mine)
                m.out.conflicts.append(
                    Conflict(
                        rater=m.src.raters[mine["rater"]]["name"],
                        uuid=mine["uuid"],
                        model=mine["model"],
                        kept=kept["label"] if isinstance(kept, dict) else kept.label,
                        kept_at=kept["created_at"] if isinstance(kept, dict) else kept.created_at,
                        lost=lost["label"] if isinstance(lost, dict) else lost.label,
                        lost_at=lost["created_at"] if isinstance(lost, dict) else lost.created_at,
                        lost_from=str(m.src.path) if isinstance(lost, dict) else "the target",
                    )
                )
            if not same and later:
                if current is not None:
                    demote.append(current.id)
                if mine_id in known:  # there already, as history: make it current again
                    promote.append(known[mine_id].id)
                else:
                    winner_new = True
        for row in rows:
            key = _identity(row["label"], row["status"], row["created_at"])
            if key in known:
                m.out.verdicts_known += 1
                continue
            known[key] = None
            is_winner = winner_new and row is mine
            new_rows.append(_values(m, unit, row, is_winner, current, guidelines))
    for verdict_id in demote:
        m.update_current(verdict_id, None)
    if new_rows:
        m.s.execute(insert(VerdictRow), new_rows)
    for verdict_id in promote:
        m.update_current(None, verdict_id)
    m.out.verdicts = len(new_rows)


def _values(
    m: Merger,
    unit: Unit,
    row: dict[str, Any],
    current: bool,
    superseded: Any,
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
        "label": row["label"],
        "status": row["status"],
        "raw": row["raw"],
        "scores_json": row["scores_json"],
        "run_id": None,
        "source": row["source"],
        "supersedes_id": superseded.id if current and superseded is not None else None,
        "is_current": current,
        "created_at": row["created_at"],
        "seen": row["seen"],
        "guideline_id": guideline,
    }
