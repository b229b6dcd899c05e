"""The merge of rows with a history and one current row per unit (every schema's labels).

A row is identified by its unit, the values it records and when it was made. Every row of the
source that the target lacks is added; then, per unit, of the target's current row and the
source's, the later one is current and the other stays as history. When the two record
different values that is a conflict, reported with both. Demotions run before the inserts and
promotions after them, so the database's "one current row per rater and unit" index holds after
every statement. `schema_labels.py` says what a unit and a row are.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import insert, update
from sqlmodel import SQLModel

from w2c_tui.db.merge.base import TARGET, Conflict, Merger, moment

Row = Mapping[str, Any]
"""A row as column → value: the source's as read, the target's from its ORM object."""


@dataclass(frozen=True)
class History:
    """What one table's merge compares and reports."""

    table: type[SQLModel]
    recorded: tuple[str, ...]
    """The columns that hold what the row says (a label and status; a CriticTool answer set)."""
    shown: Callable[[Row], str | None]
    """A row's value as a conflict reports it."""
    model: Callable[[Row], str | None]
    """The model whose response a source row is about (for the conflict's unit)."""

    def identity(self, row: Row) -> tuple[Any, ...]:
        """What a row records, and when it was made."""
        return (*(row[c] for c in self.recorded), moment(row["created_at"]))


@dataclass
class Plan:
    """What one source changes in the target: rows to add, rows to demote and promote."""

    new_rows: list[dict[str, Any]]
    demote: list[int]
    promote: list[int]
    known: int


U = TypeVar("U", bound=Hashable)
"""A unit: who rated what."""


def plan(
    m: Merger,
    history: History,
    by_unit: Mapping[U, list[Row]],
    existing: Mapping[U, list[Row]],
    values: Callable[[U, Row, bool, Row | None], dict[str, Any]],
) -> Plan:
    """Decide, unit by unit, what to add and which row is current (see the module docstring);
    conflicts go to `m.out.conflicts`. `values(unit, source row, current?, the target's current
    row)` gives a new row's columns."""

    def origin(unit: U, row: Row, mine: Row) -> str:
        if row is mine:
            return str(m.src.path)
        return m.origins.get((history.table.__name__, unit, history.identity(row)), TARGET)

    out = Plan([], [], [], 0)
    for unit, rows in by_unit.items():
        have = existing.get(unit, [])
        known: dict[tuple[Any, ...], Row | None] = {history.identity(r): r for r in have}
        current = next((r for r in have if r["is_current"]), None)
        mine = next((r for r in rows if r["is_current"]), None)
        winner_new = False
        if mine is not None:
            mine_id = history.identity(mine)
            same = current is not None and history.identity(current) == mine_id
            later = current is None or moment(mine["created_at"]) > moment(current["created_at"])
            differ = current is not None and any(mine[c] != current[c] for c in history.recorded)
            if not same and differ and (later or mine_id not in known):  # news, not a re-merge
                assert current is not None
                kept, lost = (mine, current) if later else (current, mine)
                m.out.conflicts.append(
                    Conflict(
                        rater=m.src.raters[mine["rater"]]["name"],
                        uuid=mine["uuid"],
                        model=history.model(mine),
                        kept=history.shown(kept),
                        kept_at=kept["created_at"],
                        lost=history.shown(lost),
                        lost_at=lost["created_at"],
                        lost_from=origin(unit, lost, mine),
                        kept_from=origin(unit, kept, mine),
                    )
                )
            if not same and later:
                if current is not None:
                    out.demote.append(current["id"])
                found = known.get(mine_id)
                if found is not None:  # there already, as history: make it current again
                    out.promote.append(found["id"])
                else:
                    winner_new = True
        for row in rows:
            key = history.identity(row)
            if key in known:
                out.known += 1
                continue
            known[key] = None
            m.origins[(history.table.__name__, unit, key)] = str(m.src.path)
            out.new_rows.append(values(unit, row, winner_new and row is mine, current))
    return out


def apply(m: Merger, history: History, changes: Plan) -> None:
    """Demote, insert, promote: one current row per unit after every statement."""
    table: Any = history.table
    for row_id in changes.demote:
        m.s.execute(update(table).where(table.id == row_id).values(is_current=False))
    if changes.new_rows:
        m.s.execute(insert(table), changes.new_rows)
    for row_id in changes.promote:
        m.s.execute(update(table).where(table.id == row_id).values(is_current=True))


def as_row(orm: SQLModel) -> dict[str, Any]:
    """A target ORM row as column → value."""
    return orm.model_dump()
