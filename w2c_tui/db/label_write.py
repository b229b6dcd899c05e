"""One label written inside a caller's transaction: supersede the current row, insert the new.

A When2Call label is a row of the one label store (`db.when2call_labels`); the store's unique
partial index `uq_label_current` guarantees one current label per rater and unit. The previous
row is retired with a conditional UPDATE; if another writer retired it (or made another row
current) first, `Raced` or an IntegrityError tells the caller's retry loop to
read again — nobody's label is lost and no duplicate can stay.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from w2c_tui.db.common import equal
from w2c_tui.db.tables import GuidelineRow, LabelRow
from w2c_tui.db.when2call_labels import when2call, when2call_row
from w2c_tui.db.writes import retire
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.models import LabelChange
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
    """The rater's current When2Call label on the unit."""
    return session.exec(
        select(LabelRow).where(
            when2call(),
            col(LabelRow.rater_id) == rater_id,
            col(LabelRow.item_id) == item_id,
            col(LabelRow.is_current).is_(True),
            equal(LabelRow.target_model_id, model_id),
            equal(LabelRow.response_id, response_id),
        )
    ).first()


def current_guideline_id(session: Session, dataset_id: int) -> int | None:
    """The newest guideline version of a dataset (None when it has none)."""
    found = session.exec(
        select(GuidelineRow.id)
        .where(col(GuidelineRow.dataset_id) == dataset_id)
        .order_by(col(GuidelineRow.version).desc())
        .limit(1)
    ).first()
    return int(found) if found is not None else None


def write_label(session: Session, write: LabelWrite) -> LabelChange | None:
    """Record the label unless it is what the unit already has (then None)."""
    current = current_verdict(
        session, write.rater_id, write.item_id, write.model_id, write.response_id
    )
    previous = Label(current.value) if current is not None and current.value else None
    if current is None and write.label is None:
        return None
    if (
        current is not None
        and previous == write.label
        and (write.raw is None or write.raw == (current.raw or ""))
    ):
        return None
    if current is not None:
        retire(session, LabelRow, current.id)
    row = when2call_row(
        rater_id=write.rater_id,
        item_id=write.item_id,
        model_id=write.model_id,
        response_id=write.response_id,
        label=write.label.value if write.label else None,
        status=(VerdictStatus.OK if write.label else VerdictStatus.MISSING).value,
        source=write.source,
        supersedes_id=current.id if current else None,
        seen=write.seen.value if write.seen else None,
        raw=write.raw or None,
        guideline_id=current_guideline_id(session, write.dataset_id),
    )
    session.add(row)
    session.flush()  # the unique index speaks here if another writer got in first
    assert row.id is not None
    return LabelChange(
        item_id=write.item_id,
        response_id=write.response_id,
        verdict_id=row.id,
        previous_label=previous,
        label=write.label,
    )
