"""Where each annotator left off in each dataset (one row per annotator and dataset)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row
from w2c_tui.db.tables import DatasetRow, ItemRow, ReviewPlaceRow, utcnow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.review import ReviewMode, ReviewPlace

PLACE_WAIT_MS = 200
"""A place is not a label: when the database is busy it is skipped (the next one will do)."""


class PlaceStore:
    """Reads and writes review places."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def save(self, rater_id: int, dataset: str, place: ReviewPlace) -> None:
        """Remember `place` (one transaction; replaces the earlier one). A busy or read-only
        database raises WriteError after one short attempt."""
        retry_write(lambda: self._save(rater_id, dataset, place), deadline_s=0.0)

    def _save(self, rater_id: int, dataset: str, place: ReviewPlace) -> None:
        with write_session(self.engine, busy_ms=PLACE_WAIT_MS) as session, session.begin():
            ds = dataset_row(session, dataset)
            values = {
                "rater_id": rater_id,
                "dataset_id": ds.id,
                "mode": place.mode.value,
                "item_id": place.item_id,
                "queue": place.queue,
                "updated_at": utcnow(),
            }
            module: Any = postgresql if self.engine.dialect.name == "postgresql" else sqlite
            statement = module.insert(ReviewPlaceRow).values(**values)
            session.execute(
                statement.on_conflict_do_update(
                    index_elements=["rater_id", "dataset_id"],
                    set_={
                        k: statement.excluded[k] for k in ("mode", "item_id", "queue", "updated_at")
                    },
                )
            )

    def load(self, rater_id: int, dataset: str) -> ReviewPlace | None:
        """The annotator's place in `dataset` (None when they have none, or its item is gone)."""
        with Session(self.engine) as session:
            row = session.exec(
                select(ReviewPlaceRow)
                .join(DatasetRow, col(DatasetRow.id) == col(ReviewPlaceRow.dataset_id))
                .where(col(ReviewPlaceRow.rater_id) == rater_id, col(DatasetRow.name) == dataset)
            ).first()
            if row is None:
                return None
            if row.item_id is not None and session.get(ItemRow, row.item_id) is None:
                return None
            return ReviewPlace(ReviewMode(row.mode), row.item_id, row.queue)
