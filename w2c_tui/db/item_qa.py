"""What exports read in bulk: whole items (with their imported lines), current QA flags and
notes, and response texts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Engine, and_
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.checklist import NOTE, checklist_rows, flag_on
from w2c_tui.db.common import dataset_row
from w2c_tui.db.convert import to_item
from w2c_tui.db.tables import ItemRow, LabelRow, RaterRow, ResponseRow
from w2c_tui.domain.models import Item
from w2c_tui.domain.outcomes import ItemFlag, ItemNote


class ItemQAQueries:
    """Reads a dataset's items and item-QA state for exports and the QA summary."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def items(self, dataset: str) -> list[Item]:
        """Every item of the dataset, whole, in file order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.exec(
                select(ItemRow)
                .where(col(ItemRow.dataset_id) == ds.id)
                .order_by(col(ItemRow.position))
            ).all()
            return [to_item(row, ds.name) for row in rows]

    def flags(self, dataset: str) -> list[ItemFlag]:
        """Flags switched on now (each annotator's current checklist answers "yes")."""
        return [
            ItemFlag(name, item_id, question)
            for name, item_id, question, _ in self._checklist(dataset, flag_on())
        ]

    def notes(self, dataset: str) -> list[ItemNote]:
        """Each annotator's current note per item, where it is not empty."""
        current = and_(
            col(LabelRow.question) == NOTE,
            col(LabelRow.is_current).is_(True),
            col(LabelRow.value).is_not(None),
            checklist_rows(),
        )
        return [ItemNote(name, item_id, text) for name, item_id, _, text in self._checklist(
            dataset, current
        )]  # fmt: skip

    def _checklist(self, dataset: str, condition: Any) -> list[tuple[str, int, str, str]]:
        """(annotator, item id, question, value) of the dataset's checklist answers that meet
        `condition`, oldest first."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.execute(
                sa_select(
                    col(RaterRow.name),
                    col(LabelRow.item_id),
                    col(LabelRow.question),
                    col(LabelRow.value),
                )
                .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
                .where(col(ItemRow.dataset_id) == ds.id, condition)
                .order_by(col(LabelRow.id))
            ).all()
        return [(n, int(i), q, v) for n, i, q, v in rows]

    def response_texts(self, ids: Iterable[int]) -> dict[int, str | None]:
        """The text of each response id."""
        wanted = sorted(set(ids))
        out: dict[int, str | None] = {}
        with Session(self.engine) as session:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                for rid, text in session.execute(
                    sa_select(col(ResponseRow.id), col(ResponseRow.text)).where(
                        col(ResponseRow.id).in_(chunk)
                    )
                ).all():
                    out[int(rid)] = text
        return out
