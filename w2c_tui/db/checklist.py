"""The item-QA checklist and notes as answers of `when2call-item-qa` in the one label store.

A flag switched on is the answer "yes" to its question (the flag's code); switched off, the
answer is withdrawn. A note is the answer to the question `note` (an empty text withdraws it).
Both are written by the store's one writer (`schema_labels.write_answer`), so they keep their
history and one current answer per annotator, item and question like every label; a "no"
recorded with the schema's own form counts as not flagged.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_
from sqlmodel import Session, col, select

from w2c_tui.db.schema_labels import AnswerWrite, current_answer, write_answer
from w2c_tui.db.tables import LabelRow
from w2c_tui.domain.schema_builtins import WHEN2CALL_ITEM_QA
from w2c_tui.domain.schema_labels import Unit

SCHEMA = WHEN2CALL_ITEM_QA.name
NOTE = "note"
BEHAVIOUR = "behaviour"
YES = "yes"


def checklist_rows(table: Any = LabelRow) -> Any:
    """The condition that keeps item-QA checklist answers and notes (of `table` or an alias)."""
    return and_(col(table.schema_name) == SCHEMA, col(table.question) != BEHAVIOUR)


def flag_on(table: Any = LabelRow) -> Any:
    """The condition: a current checklist answer that switches its flag on."""
    return and_(
        checklist_rows(table),
        col(table.question) != NOTE,
        col(table.is_current).is_(True),
        col(table.value) == YES,
    )


def write_flag(session: Session, rater_id: int, item_id: int, code: str, on: bool) -> bool:
    """Switch the annotator's flag on or off on the item; False when it already was."""
    value = YES if on else None
    unit = Unit(item_id)
    current = current_answer(session, rater_id, unit, SCHEMA, code)
    if (current is not None and current.value == YES) == on:  # a "no" is off already
        return False
    return write_answer(session, AnswerWrite(rater_id, unit, SCHEMA, code, value))


def current_note(session: Session, rater_id: int, item_id: int) -> str | None:
    """The annotator's current note on the item (None: none)."""
    row = current_answer(session, rater_id, Unit(item_id), SCHEMA, NOTE)
    return row.value if row is not None else None


def write_note(session: Session, rater_id: int, item_id: int, text: str) -> bool:
    """Replace the annotator's note on the item (an empty text withdraws it)."""
    return write_answer(session, AnswerWrite(rater_id, Unit(item_id), SCHEMA, NOTE, text or None))


def item_checklist(session: Session, item_id: int, rater_id: int) -> tuple[frozenset[str], str]:
    """The annotator's flags switched on and note on one item."""
    rows = session.exec(
        select(LabelRow.question, LabelRow.value).where(
            col(LabelRow.item_id) == item_id,
            col(LabelRow.rater_id) == rater_id,
            col(LabelRow.is_current).is_(True),
            checklist_rows(),
        )
    ).all()
    flags = frozenset(q for q, v in rows if q != NOTE and v == YES)
    note = next((v for q, v in rows if q == NOTE and v), "")
    return flags, note
