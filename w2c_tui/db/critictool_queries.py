"""Reading CriticTool samples and predictions back (with the ids labels key on)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.common import chunked, dataset_row
from w2c_tui.db.critictool_convert import to_stored_prediction, to_stored_sample
from w2c_tui.db.tables import (
    CriticToolPredictionRow,
    CriticToolSampleRow,
    DatasetRow,
    ItemRow,
    TargetModelRow,
)
from w2c_tui.domain.critictool import Sample
from w2c_tui.domain.critictool_stored import (
    CRITICTOOL_DATASET_KIND,
    StoredPrediction,
    StoredSample,
)
from w2c_tui.domain.errors import NotFoundError

Q = TypeVar("Q", bound=Any)
"""A select statement."""


class CriticToolQueries:
    """Reads CriticTool datasets, samples and predictions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def datasets(self) -> list[str]:
        """Names of the CriticTool datasets."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(DatasetRow.name)
                    .where(col(DatasetRow.kind) == CRITICTOOL_DATASET_KIND)
                    .order_by(col(DatasetRow.name))
                ).all()
            )

    def samples(self, dataset: str) -> list[StoredSample]:
        """Every sample of `dataset`, in import order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            if ds.kind != CRITICTOOL_DATASET_KIND:
                raise NotFoundError(f"dataset {dataset!r} is not a CriticTool dataset")
            rows = session.exec(
                select(CriticToolSampleRow)
                .join(ItemRow, col(ItemRow.id) == col(CriticToolSampleRow.item_id))
                .where(col(CriticToolSampleRow.dataset_id) == ds.id)
                .order_by(col(ItemRow.position))
            ).all()
            return [to_stored_sample(row, dataset) for row in rows]

    def sample(self, item_id: int) -> StoredSample:
        """The sample whose item id is `item_id`."""
        with Session(self.engine) as session:
            found = session.exec(
                select(CriticToolSampleRow, DatasetRow.name)
                .join(DatasetRow, col(DatasetRow.id) == col(CriticToolSampleRow.dataset_id))
                .where(col(CriticToolSampleRow.item_id) == item_id)
            ).first()
            if found is None:
                raise NotFoundError(f"no CriticTool sample with item id {item_id}")
            row, name = found
            return to_stored_sample(row, name)

    def predictions(
        self,
        *,
        item_id: int | None = None,
        dataset: str | None = None,
        target_model: str | None = None,
        run_id: int | None = None,
    ) -> list[StoredPrediction]:
        """Predictions of one item or of a whole dataset, optionally of one model or run;
        by item, then model, mode and CoT."""
        with Session(self.engine) as session:
            query = (
                select(CriticToolPredictionRow, TargetModelRow.name)
                .join(
                    TargetModelRow,
                    col(TargetModelRow.id) == col(CriticToolPredictionRow.target_model_id),
                )
                .join(ItemRow, col(ItemRow.id) == col(CriticToolPredictionRow.item_id))
            )
            if item_id is not None:
                query = query.where(col(CriticToolPredictionRow.item_id) == item_id)
            if dataset is not None:
                query = query.where(col(ItemRow.dataset_id) == dataset_row(session, dataset).id)
            if target_model is not None:
                query = query.where(col(TargetModelRow.name) == target_model)
            if run_id is not None:
                query = query.where(col(CriticToolPredictionRow.run_id) == run_id)
            query = query.order_by(
                col(ItemRow.position),
                col(TargetModelRow.name),
                col(CriticToolPredictionRow.mode),
                col(CriticToolPredictionRow.cot),
            )
            return [to_stored_prediction(row, name) for row, name in session.exec(query).all()]

    def judged(self, item_ids: Sequence[int], target_model: str, mode: str, cot: bool) -> set[int]:
        """The items among `item_ids` with a prediction of `target_model` in a run's setting."""
        with Session(self.engine) as session:
            return {
                int(item_id)
                for chunk in chunked(item_ids)
                for item_id in session.exec(
                    in_setting(
                        select(CriticToolPredictionRow.item_id), chunk, target_model, mode, cot
                    )
                ).all()
            }

    def clashes(self, item_ids: Sequence[int], target_model: str, mode: str, cot: bool) -> int:
        """How many of these items already have a prediction of `target_model` in a run's
        setting (internal samples: any mode; external: `mode`), CoT or not as `cot`."""
        with Session(self.engine) as session:
            return sum(
                len(
                    session.exec(
                        in_setting(
                            select(CriticToolPredictionRow.id), chunk, target_model, mode, cot
                        )
                    ).all()
                )
                for chunk in chunked(item_ids)
            )


def in_setting(query: Q, item_ids: Sequence[int], target_model: str, mode: str, cot: bool) -> Q:
    """`query` over `critic_prediction` kept to these items' predictions of `target_model` in a
    run's setting: internal samples (mode '') or external ones in `mode`, CoT or not as `cot`."""
    joined = query.join(
        TargetModelRow, col(TargetModelRow.id) == col(CriticToolPredictionRow.target_model_id)
    )
    return cast(
        Q,
        joined.where(
            col(CriticToolPredictionRow.item_id).in_(item_ids),
            col(TargetModelRow.name) == target_model,
            col(CriticToolPredictionRow.mode).in_(["", mode]),
            col(CriticToolPredictionRow.cot).is_(cot),
        ),
    )


def critictool_samples(session: Session, item_ids: Sequence[int]) -> dict[int, Sample]:
    """Item id → the CriticTool sample (dataset form) of those items that are samples."""
    found: dict[int, Sample] = {}
    for chunk in chunked(item_ids):
        rows = session.exec(
            select(CriticToolSampleRow).where(col(CriticToolSampleRow.item_id).in_(chunk))
        ).all()
        for row in rows:
            found[row.item_id] = to_stored_sample(row, "").sample
    return found


def judged_predictions(
    session: Session, item_ids: Sequence[int], target_model: str, mode: str, cot: bool
) -> dict[int, StoredPrediction]:
    """Item id → the prediction of `target_model` a CriticTool judge run judges: in the run's
    setting (internal samples: mode ''; external: `mode`), CoT or not as `cot`."""
    found: dict[int, StoredPrediction] = {}
    for chunk in chunked(item_ids):
        query = in_setting(select(CriticToolPredictionRow), chunk, target_model, mode, cot)
        for row in session.exec(query.order_by(col(CriticToolPredictionRow.id))).all():
            found[row.item_id] = to_stored_prediction(row, target_model)
    return found
