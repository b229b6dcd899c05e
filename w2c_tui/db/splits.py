"""Frozen dev/test splits (`w2c split`): one per dataset, its units fixed when it is drawn,
and a counter of how often its test part was used."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, update
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row
from w2c_tui.db.tables import DataSplitRow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.errors import W2CError


@dataclass(frozen=True)
class StoredSplit:
    """A dataset's split as stored."""

    dataset: str
    seed: int
    test_share: float
    units: dict[str, str]
    """unit key (`uuid@model`) → "dev" | "test"."""
    test_uses: int
    created_at: datetime


class SplitStore:
    """Reads and writes splits."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, dataset: str) -> StoredSplit | None:
        """The dataset's split, or None."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            row = session.exec(
                select(DataSplitRow).where(col(DataSplitRow.dataset_id) == ds.id)
            ).first()
            return _stored(dataset, row) if row is not None else None

    def save(
        self, dataset: str, seed: int, test_share: float, units: dict[str, str], *, force: bool
    ) -> StoredSplit:
        """Store a new split; an existing one is replaced only with `force` (its test-use
        count goes with it), else refused."""

        def write() -> StoredSplit:
            with write_session(self.engine) as session, session.begin():
                ds = dataset_row(session, dataset)
                old = session.exec(
                    select(DataSplitRow).where(col(DataSplitRow.dataset_id) == ds.id)
                ).first()
                if old is not None:
                    if not force:
                        raise W2CError(_frozen(_stored(dataset, old)))
                    session.delete(old)
                    session.flush()
                row = DataSplitRow(
                    dataset_id=ds.id or 0,
                    seed=seed,
                    test_share=test_share,
                    units_json=json.dumps(units, sort_keys=True),
                )
                session.add(row)
                session.flush()
                return _stored(dataset, row)

        return retry_write(write)

    def use_test(self, dataset: str) -> int:
        """Count one use of the test part (one atomic UPDATE); the new count."""

        def write() -> int:
            with write_session(self.engine) as session, session.begin():
                ds = dataset_row(session, dataset)
                session.execute(
                    update(DataSplitRow)
                    .where(col(DataSplitRow.dataset_id) == ds.id)
                    .values(test_uses=col(DataSplitRow.test_uses) + 1)
                )
                row = session.exec(
                    select(DataSplitRow).where(col(DataSplitRow.dataset_id) == ds.id)
                ).first()
                if row is None:
                    raise W2CError(f"{dataset!r} has no split: `w2c split` draws one")
                return row.test_uses

        return retry_write(write)


def _stored(dataset: str, row: DataSplitRow) -> StoredSplit:
    return StoredSplit(
        dataset=dataset,
        seed=row.seed,
        test_share=row.test_share,
        units=json.loads(row.units_json),
        test_uses=row.test_uses,
        created_at=row.created_at,
    )


def _frozen(split: StoredSplit) -> str:
    test = sum(1 for part in split.units.values() if part == "test")
    return (
        f"{split.dataset!r} already has a frozen split (seed {split.seed}, "
        f"{len(split.units) - test} dev / {test} test units, drawn {split.created_at:%Y-%m-%d}, "
        f"test used {split.test_uses} times): --force replaces it"
    )
