"""One When2Call label written inside a caller's transaction, through the label store's one
writer (`schema_labels.write_over`, given the unit's current row read once): the answer to
`behaviour` of a When2Call built-in (`db.when2call_labels`), with the status that says whether
it is a label or a withdrawal.

The store's unique partial index `uq_label_current` guarantees one current label per rater and
unit. The writer retires the previous row with a conditional UPDATE; if another writer retired
it (or made another row current) first, `Raced` or an IntegrityError tells the caller's retry
loop to read again — nobody's label is lost and no duplicate can stay.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from w2c_tui.db.guidelines import current_guideline_id
from w2c_tui.db.schema_labels import AnswerWrite, current_answer, write_over
from w2c_tui.db.tables import LabelRow
from w2c_tui.db.when2call_labels import QUESTION, schema_for
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.models import LabelChange
from w2c_tui.domain.schema_labels import Unit
from w2c_tui.domain.team import Seen


@dataclass(frozen=True, slots=True)
class LabelWrite:
    """What to record: a rater's label (None withdraws) on one unit."""

    rater_id: int
    item_id: int
    dataset_id: int
    model_id: int | None
    response_id: int | None
    label: Label | None
    seen: Seen | None = None
    source: str = "tui"
    raw: str | None = None
    """Free text kept with the label (an adjudicator's note); a changed text is a change."""


def current_verdict(
    session: Session, rater_id: int, item_id: int, model_id: int | None, response_id: int | None
) -> LabelRow | None:
    """The rater's current When2Call label on the unit (the store's `current_answer`)."""
    unit = Unit(item_id, response_id)
    schema = schema_for(model_id, response_id)
    return current_answer(session, rater_id, unit, schema, QUESTION, model_id)


def write_label(session: Session, write: LabelWrite) -> LabelChange | None:
    """Record the label unless it is what the unit already has (then None)."""
    current = current_verdict(
        session, write.rater_id, write.item_id, write.model_id, write.response_id
    )
    previous = Label(current.value) if current is not None and current.value else None
    row = write_over(
        session,
        AnswerWrite(
            rater_id=write.rater_id,
            unit=Unit(write.item_id, write.response_id),
            schema=schema_for(write.model_id, write.response_id),
            question=QUESTION,
            value=write.label.value if write.label else None,
            source=write.source,
            seen=write.seen,
            guideline_id=current_guideline_id(session, write.dataset_id),
            model_id=write.model_id,
            status=(VerdictStatus.OK if write.label else VerdictStatus.MISSING).value,
            raw=write.raw,
        ),
        current,
    )
    if row is None:
        return None
    assert row.id is not None
    return LabelChange(
        item_id=write.item_id,
        response_id=write.response_id,
        verdict_id=row.id,
        previous_label=previous,
        label=write.label,
    )
