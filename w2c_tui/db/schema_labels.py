"""Labels of every schema: one writer, one "one current label per rater, unit and question"
index, one history rule.

`write_answer` works inside the caller's transaction: it retires the rater's current answer to
the question on the unit with a conditional UPDATE (`writes.retire`) and adds the new row that
points to it, so an edit never destroys the earlier answer and a racing writer is told to read
again (`Raced`, or the unique index `uq_label_current` at the flush). Every front end — the
labelling screen, the CSV import (`schema_label_import.py`) — records answers through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, true
from sqlmodel import Session, col, select

from w2c_tui.db.common import equal, rater_row
from w2c_tui.db.guidelines import current_guideline_id
from w2c_tui.db.tables import (
    ItemRow,
    LabelRow,
    ResponseRow,
    utcnow,
)
from w2c_tui.db.when2call_labels import QUESTION, SCHEMAS
from w2c_tui.db.writes import retire, retry_write, write_session
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import RaterKind, VerdictStatus
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.schema_labels import (
    Unit,
)
from w2c_tui.domain.schemas import LabelSchema
from w2c_tui.domain.team import Seen


@dataclass(frozen=True, slots=True)
class AnswerWrite:
    """One answer to record: a rater's value (None withdraws) for one question on one unit."""

    rater_id: int
    unit: Unit
    schema: str
    question: str
    value: str | None
    source: str = "tui"
    seen: Seen | None = None
    guideline_id: int | None = None
    at: datetime | None = None
    """When it was made (default now); the answers of one write share it, which is how a
    unit's history is read back as answer sets (`critictool_labels.CriticToolLabelStore`)."""
    model_id: int | None = None
    """The model whose reading of the item this is (a log-prob reading: no response)."""
    status: str | None = None
    """A When2Call label's status (`domain.labels.VerdictStatus`); None for other schemas."""
    raw: str | None = None
    """Free text kept with the answer (an adjudicator's note); a changed text is a change."""


def current_answer(
    session: Session,
    rater_id: int,
    unit: Unit,
    schema: str,
    question: str,
    model_id: int | None = None,
) -> LabelRow | None:
    """The rater's current answer to `question` of `schema` on `unit` (for the model
    `model_id`'s reading of the item, where the unit has no response; a response names its
    model)."""
    same_model = equal(LabelRow.target_model_id, model_id) if unit.response_id is None else true()
    return session.exec(
        select(LabelRow).where(
            col(LabelRow.rater_id) == rater_id,
            col(LabelRow.item_id) == unit.item_id,
            same_model,
            equal(LabelRow.response_id, unit.response_id),
            col(LabelRow.schema_name) == schema,
            col(LabelRow.question) == question,
            col(LabelRow.is_current).is_(True),
        )
    ).first()


def write_answer(session: Session, write: AnswerWrite) -> bool:
    """Record the answer unless it is what the unit already has (then False)."""
    return write_row(session, write) is not None


def write_row(session: Session, write: AnswerWrite) -> LabelRow | None:
    """Record the answer unless it is what the unit already has (then None): the new row."""
    current = current_answer(
        session, write.rater_id, write.unit, write.schema, write.question, write.model_id
    )
    return write_over(session, write, current)


def write_over(session: Session, write: AnswerWrite, current: LabelRow | None) -> LabelRow | None:
    """`write_row` where the caller has read the unit's `current_answer` in this transaction."""
    if current is None and write.value is None:
        return None
    if (
        current is not None
        and current.value == write.value
        and (write.raw is None or write.raw == (current.raw or ""))
    ):
        return None
    if current is not None:
        retire(session, LabelRow, current.id)
    model_id, status = write.model_id, write.status
    if write.schema in SCHEMAS and write.question == QUESTION:  # a When2Call label
        if model_id is None and write.unit.response_id is not None:
            response = session.get(ResponseRow, write.unit.response_id)
            model_id = response.target_model_id if response is not None else None
        if status is None:
            status = (VerdictStatus.OK if write.value else VerdictStatus.MISSING).value
    row = LabelRow(
        rater_id=write.rater_id,
        item_id=write.unit.item_id,
        target_model_id=model_id,
        response_id=write.unit.response_id,
        schema_name=write.schema,
        question=write.question,
        value=write.value,
        status=status,
        raw=write.raw or None,
        source=write.source,
        seen=write.seen.value if write.seen else None,
        guideline_id=write.guideline_id,
        supersedes_id=current.id if current is not None else None,
        created_at=write.at or utcnow(),
    )
    session.add(row)
    session.flush()  # the unique index speaks here if another writer got in first
    return row


def _check_unit(session: Session, schema: LabelSchema, unit: Unit) -> ItemRow:
    item = session.get(ItemRow, unit.item_id)
    if item is None:
        raise InputError("label", f"no item with id {unit.item_id}")
    if schema.unit.has_response != (unit.response_id is not None):
        raise InputError("label", f"schema {schema.name!r} labels {schema.unit.value} units")
    if unit.response_id is not None:
        response = session.get(ResponseRow, unit.response_id)
        if response is None or response.item_id != unit.item_id:
            raise InputError("label", f"no response {unit.response_id} of item {unit.item_id}")
    return item


class SchemaLabelStore:
    """Writes and reads the answers of every schema."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def set_answers(
        self,
        annotator: str,
        schema: LabelSchema,
        unit: Unit,
        answers: dict[str, str | None],
        *,
        seen: Seen | None = None,
        source: str = "tui",
        deadline_s: float = 10.0,
        kind: RaterKind = RaterKind.HUMAN,
        note: str | None = None,
    ) -> int:
        """Record an annotator's answers on one unit in one transaction (None withdraws an
        answer; a question not named is left as it is); how many answers changed. An
        adjudicator (`kind`) records decisions, with the `note` kept on each (a changed note
        is a change)."""
        checked = {
            name: schema.question(name).check(value) if value is not None else None
            for name, value in answers.items()
        }
        given = {name: value for name, value in checked.items() if value is not None}
        for name, value in schema.implied(given).items():  # "no error" is category none
            checked.setdefault(name, value)

        def write() -> int:
            with write_session(self.engine) as session, session.begin():
                item = _check_unit(session, schema, unit)
                rater = rater_row(session, RaterSpec(kind, annotator))
                assert rater.id is not None
                guideline = current_guideline_id(session, item.dataset_id)
                return sum(
                    write_answer(
                        session,
                        AnswerWrite(
                            rater.id,
                            unit,
                            schema.name,
                            name,
                            value,
                            source,
                            seen,
                            guideline,
                            raw=note,
                        ),
                    )
                    for name, value in checked.items()
                )

        return retry_write(write, deadline_s=deadline_s)
