"""Dataset listing with item, response and label counts (human labels: current When2Call
verdicts and CriticTool labels of people)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, func, select

from w2c_tui.db.tables import (
    CriticLabelRow,
    DatasetRow,
    ItemRow,
    RaterRow,
    ResponseRow,
    TargetModelRow,
    VerdictRow,
)
from w2c_tui.domain.labels import RaterKind, VerdictStatus
from w2c_tui.domain.models import Dataset


def _human_labels(
    session: Session, table: type[VerdictRow] | type[CriticLabelRow], *where: Any
) -> dict[int, int]:
    """Dataset id → people's current rows in `table` (verdicts, CriticTool labels) that pass
    `where`."""
    query = (
        select(ItemRow.dataset_id, func.count())
        .join(table, col(table.item_id) == col(ItemRow.id))
        .join(RaterRow, col(RaterRow.id) == col(table.rater_id))
        .where(col(RaterRow.kind) == RaterKind.HUMAN.value, col(table.is_current).is_(True), *where)
        .group_by(col(ItemRow.dataset_id))
    )
    return {int(d): int(n) for d, n in session.exec(query).all()}


class DatasetQueries:
    """Reads datasets."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def all(self) -> list[Dataset]:
        """Every dataset with its counts, by name."""
        with Session(self.engine) as session:
            items = dict(
                session.exec(
                    select(ItemRow.dataset_id, func.count()).group_by(col(ItemRow.dataset_id))
                ).all()
            )
            responses = dict(
                session.exec(
                    select(ItemRow.dataset_id, func.count())
                    .join(ResponseRow, col(ResponseRow.item_id) == col(ItemRow.id))
                    .group_by(col(ItemRow.dataset_id))
                ).all()
            )
            labels = _human_labels(
                session,
                VerdictRow,
                col(VerdictRow.status) == VerdictStatus.OK.value,
            )
            critic = _human_labels(  # answers withdrawn with '{}' are no label
                session, CriticLabelRow, col(CriticLabelRow.answers_json) != "{}"
            )
            for dataset_id, count in critic.items():
                labels[dataset_id] = labels.get(dataset_id, 0) + count
            rows = session.exec(select(DatasetRow).order_by(col(DatasetRow.name))).all()
            out = []
            for row in rows:
                assert row.id is not None
                out.append(
                    Dataset(
                        id=row.id,
                        name=row.name,
                        kind=row.kind,
                        source_path=row.source_path,
                        sha256=row.sha256,
                        imported_at=row.imported_at,
                        n_items=int(items.get(row.id, 0)),
                        n_human_labels=int(labels.get(row.id, 0)),
                        n_responses=int(responses.get(row.id, 0)),
                    )
                )
            return out

    def target_models(self) -> list[str]:
        """Names of the target models that have responses or verdicts."""
        with Session(self.engine) as session:
            return list(
                session.exec(select(TargetModelRow.name).order_by(col(TargetModelRow.name))).all()
            )
