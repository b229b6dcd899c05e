"""Dataset listing with item, response and label counts (human labels: the units people
labelled in the label store, When2Call's and every other schema's)."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func, select

from w2c_tui.db.tables import (
    DatasetRow,
    ItemRow,
    LabelRow,
    RaterRow,
    ResponseRow,
    TargetModelRow,
)
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.models import Dataset


def _human_schema_labels(session: Session) -> dict[int, int]:
    """Dataset id → units people labelled in the label store (any schema, When2Call's and
    CriticTool's included): one per person, schema and unit with a current answer (withdrawn
    ones are no label)."""
    units = (
        sa_select(
            col(ItemRow.dataset_id),
            col(LabelRow.schema_name),
            col(LabelRow.rater_id),
            col(LabelRow.item_id),
            col(LabelRow.target_model_id),
            col(LabelRow.response_id),
        )
        .join(LabelRow, col(LabelRow.item_id) == col(ItemRow.id))
        .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
        .where(
            col(RaterRow.kind) == RaterKind.HUMAN.value,
            col(LabelRow.is_current).is_(True),
            col(LabelRow.value).is_not(None),
        )
        .distinct()
        .subquery()
    )
    query = select(units.c.dataset_id, func.count()).group_by(units.c.dataset_id)
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
            labels = _human_schema_labels(session)
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
