"""A CriticTool run's results as predictions of its model (in the run's write transaction)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlmodel import Session, col, select

from w2c_tui.db.critictool_predictions import NewPrediction, add_prediction
from w2c_tui.db.tables import CriticToolPredictionRow
from w2c_tui.domain.critictool import ExternalMode
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.runs import TaskResult


class PredictionClash(W2CError):
    """The model already has a prediction for a sample in this setting (another run, a file)."""


def critictool_records(
    session: Session, run_id: int, results: Sequence[TaskResult], model_id: int | None
) -> list[int]:
    """Store each result's rounds and parse; the response ids, in order."""
    assert model_id is not None
    made: list[int] = []
    for result in results:
        meta: dict[str, Any] = result.meta
        mode = cast(ExternalMode | None, meta.get("mode"))
        cot = bool(meta.get("cot"))
        item_id = result.task.item_id
        clash = session.exec(
            select(CriticToolPredictionRow.id).where(
                col(CriticToolPredictionRow.item_id) == item_id,
                col(CriticToolPredictionRow.target_model_id) == model_id,
                col(CriticToolPredictionRow.mode) == (mode or ""),
                col(CriticToolPredictionRow.cot).is_(cot),
            )
        ).first()
        if clash is not None:
            raise PredictionClash(
                f"sample {result.task.uuid!r} already has a prediction of this model in this "
                f"setting ({mode or 'internal'}, {'CoT' if cot else 'no CoT'}): start the run "
                "with another --target-model (or --source external for a second mode)"
            )
        pred = NewPrediction(
            item_id=item_id,
            mode=mode,
            cot=cot,
            rounds=tuple(str(r) for r in meta.get("rounds", ())),
            parsed=tuple(meta.get("parsed", ())),
        )
        made.append(add_prediction(session, pred, model_id, run_id=run_id))
    return made
