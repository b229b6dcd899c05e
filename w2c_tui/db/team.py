"""Team queries: who the annotators are, when they labelled, and every human label's history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, target_model_names
from w2c_tui.db.tables import ItemRow, RaterRow, VerdictRow
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.team import Seen


@dataclass(frozen=True, slots=True)
class LabelEvent:
    """One row of a human's label history on a unit (oldest first)."""

    annotator: str
    item_id: int
    uuid: str
    target_model: str | None
    response_id: int | None
    label: Label | None
    status: VerdictStatus
    seen: Seen | None
    created_at: datetime
    is_current: bool
    raw: str | None = None
    source: str | None = None
    """Where the label was made: "tui" for a keypress, "import …" for a file."""
    guideline_id: int | None = None
    """The guideline version in force when the label was made."""


class TeamQueries:
    """Reads what the team workflow needs that the other query modules do not."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def annotators(self) -> list[str]:
        """Every human annotator known to the database, by name."""
        with Session(self.engine) as session:
            names = session.exec(
                select(RaterRow.name)
                .where(col(RaterRow.kind) == RaterKind.HUMAN.value)
                .order_by(col(RaterRow.name))
            ).all()
            return list(dict.fromkeys(names))

    def history(self, dataset: str, kind: RaterKind = RaterKind.HUMAN) -> list[LabelEvent]:
        """Every label event of every rater of `kind` on the dataset, oldest first."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            models = target_model_names(session)
            rows = session.execute(
                sa_select(
                    col(RaterRow.name),
                    col(VerdictRow.item_id),
                    col(ItemRow.uuid),
                    col(VerdictRow.target_model_id),
                    col(VerdictRow.response_id),
                    col(VerdictRow.label),
                    col(VerdictRow.status),
                    col(VerdictRow.seen),
                    col(VerdictRow.created_at),
                    col(VerdictRow.is_current),
                    col(VerdictRow.raw),
                    col(VerdictRow.source),
                    col(VerdictRow.guideline_id),
                )
                .join(RaterRow, col(RaterRow.id) == col(VerdictRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(VerdictRow.item_id))
                .where(col(ItemRow.dataset_id) == ds.id, col(RaterRow.kind) == kind.value)
                .order_by(col(VerdictRow.id))
            ).all()
            return [
                LabelEvent(
                    annotator=name,
                    item_id=item_id,
                    uuid=uuid,
                    target_model=models.get(model) if model else None,
                    response_id=response_id,
                    label=Label(label) if label else None,
                    status=VerdictStatus(status),
                    seen=Seen(seen) if seen else None,
                    created_at=created,
                    is_current=bool(current),
                    raw=raw,
                    source=source,
                    guideline_id=guideline,
                )
                for (
                    name,
                    item_id,
                    uuid,
                    model,
                    response_id,
                    label,
                    status,
                    seen,
                    created,
                    current,
                    raw,
                    source,
                    guideline,
                ) in rows
            ]
