"""What exports read in bulk: whole items (with their imported lines), current QA flags and
notes, and response texts."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Engine
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row
from w2c_tui.db.convert import to_item
from w2c_tui.db.tables import ItemRow, NoteRow, QAFlagRow, RaterRow, ResponseRow
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
        """Flags switched on now (the latest event per annotator, item and code wins)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.execute(
                sa_select(
                    col(RaterRow.name),
                    col(QAFlagRow.item_id),
                    col(QAFlagRow.code),
                    col(QAFlagRow.active),
                )
                .join(RaterRow, col(RaterRow.id) == col(QAFlagRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(QAFlagRow.item_id))
                .where(col(ItemRow.dataset_id) == ds.id)
                .order_by(col(QAFlagRow.id))
            ).all()
        state: dict[tuple[str, int, str], bool] = {}
        for name, item_id, code, active in rows:
            state[(name, item_id, code)] = bool(active)
        return [ItemFlag(name, item_id, code) for (name, item_id, code), on in state.items() if on]

    def notes(self, dataset: str) -> list[ItemNote]:
        """Each annotator's current note per item, where it is not empty."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.execute(
                sa_select(col(RaterRow.name), col(NoteRow.item_id), col(NoteRow.text))
                .join(RaterRow, col(RaterRow.id) == col(NoteRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(NoteRow.item_id))
                .where(col(ItemRow.dataset_id) == ds.id)
                .order_by(col(NoteRow.id))
            ).all()
        latest: dict[tuple[str, int], str] = {}
        for name, item_id, text in rows:
            latest[(name, item_id)] = text
        return [ItemNote(name, item_id, text) for (name, item_id), text in latest.items() if text]

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
