"""Storing one model's CriticTool prediction of a sample: a `response` row and its
`critic_prediction` side row (from an imported predictions file or a run), and finding the one
a model already has in a setting."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from w2c_tui.db.convert import dumps
from w2c_tui.db.tables import CriticToolPredictionRow, ResponseRow
from w2c_tui.domain.critictool import ExternalMode

RESPONSE_SOURCE = "critictool"
"""The `source` of a prediction's response row."""


@dataclass(frozen=True)
class NewPrediction:
    """A prediction to store for one item (from a run)."""

    item_id: int
    mode: ExternalMode | None
    cot: bool
    rounds: tuple[str, ...]
    parsed: tuple[dict[str, object], ...]


def existing_prediction(
    session: Session, item_id: int, model_id: int, mode: str | None, cot: bool
) -> CriticToolPredictionRow | None:
    """The model's stored prediction of the item in this setting (mode, CoT), if any."""
    return session.exec(
        select(CriticToolPredictionRow).where(
            col(CriticToolPredictionRow.item_id) == item_id,
            col(CriticToolPredictionRow.target_model_id) == model_id,
            col(CriticToolPredictionRow.mode) == (mode or ""),
            col(CriticToolPredictionRow.cot).is_(cot),
        )
    ).first()


def add_prediction(
    session: Session,
    pred: NewPrediction,
    model_id: int,
    *,
    run_id: int | None = None,
    raw_json: str | None = None,
    source_path: str | None = None,
) -> int:
    """Insert a response row and its prediction side row; returns the response id."""
    internal = pred.mode is None
    response = ResponseRow(
        item_id=pred.item_id,
        target_model_id=model_id,
        text=pred.rounds[0] if internal and pred.rounds else dumps(list(pred.rounds)),
        run_id=run_id,
        source=RESPONSE_SOURCE,
        meta_json=dumps({"mode": pred.mode, "cot": pred.cot, "rounds": len(pred.rounds)}),
    )
    session.add(response)
    session.flush()
    assert response.id is not None
    session.add(
        CriticToolPredictionRow(
            item_id=pred.item_id,
            response_id=response.id,
            target_model_id=model_id,
            run_id=run_id,
            mode=pred.mode or "",
            cot=pred.cot,
            rounds_json=dumps(list(pred.rounds)),
            parsed_json=dumps(list(pred.parsed)),
            raw_json=raw_json,
            source_path=source_path,
        )
    )
    session.flush()
    return response.id
