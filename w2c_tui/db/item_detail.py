"""One item for the review panes: the item, its responses with every current verdict, QA."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.checklist import item_checklist
from w2c_tui.db.common import target_model_names
from w2c_tui.db.convert import to_item, to_rater, to_verdict
from w2c_tui.db.tables import (
    AssignmentRow,
    DatasetRow,
    ItemRow,
    LabelRow,
    RaterRow,
    ResponseRow,
)
from w2c_tui.db.when2call_labels import when2call
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import VerdictStatus
from w2c_tui.domain.models import ItemDetail, ItemQA, ModelPanel, Rater, Response, Verdict


class ItemDetails:
    """Reads one item with everything the review screen shows of it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def detail(self, item_id: int, rater_id: int | None) -> ItemDetail:
        """The item with its responses, every current verdict, and this annotator's QA."""
        with Session(self.engine) as session:
            row = session.get(ItemRow, item_id)
            if row is None:
                raise NotFoundError(f"no item with id {item_id}")
            ds = session.get(DatasetRow, row.dataset_id)
            assert ds is not None
            item = to_item(row, ds.name)
            models = target_model_names(session)
            raters: dict[int, Rater] = {}
            verdict_rows = session.exec(
                select(LabelRow)
                .where(
                    col(LabelRow.item_id) == item_id,
                    col(LabelRow.is_current).is_(True),
                    when2call(),
                )
                .order_by(col(LabelRow.id))
            ).all()
            for rid in {v.rater_id for v in verdict_rows} - raters.keys():
                rater = session.get(RaterRow, rid)
                assert rater is not None
                raters[rid] = to_rater(rater)
            verdicts = [
                to_verdict(
                    v,
                    raters[v.rater_id],
                    models.get(v.target_model_id) if v.target_model_id else None,
                )
                for v in verdict_rows
            ]
            responses = session.exec(
                select(ResponseRow)
                .where(col(ResponseRow.item_id) == item_id)
                .order_by(col(ResponseRow.id))
            ).all()
            assigned = session.exec(
                select(AssignmentRow.response_id).where(
                    col(AssignmentRow.item_id) == item_id,
                    col(AssignmentRow.rater_id) == (rater_id if rater_id is not None else -1),
                    col(AssignmentRow.response_id).is_not(None),
                )
            ).all()
            return ItemDetail(
                item=item,
                models=_panels(item_id, responses, verdicts, models),
                qa=_qa(session, item_id, rater_id, verdicts),
                assigned=frozenset(int(r) for r in assigned if r is not None),
            )


def _panels(
    item_id: int, responses: Sequence[ResponseRow], verdicts: list[Verdict], models: dict[int, str]
) -> tuple[ModelPanel, ...]:
    names: list[str] = []
    for r in responses:
        if models[r.target_model_id] not in names:
            names.append(models[r.target_model_id])
    for v in verdicts:
        if v.target_model and v.target_model not in names:
            names.append(v.target_model)
    panels = []
    for name in names:
        mine = [r for r in responses if models[r.target_model_id] == name]
        panels.append(
            ModelPanel(
                target_model=name,
                responses=tuple(
                    Response(
                        id=r.id,
                        item_id=item_id,
                        target_model=name,
                        text=r.text,
                        created_at=r.created_at,
                        verdicts=tuple(v for v in verdicts if v.response_id == r.id),
                    )
                    for r in mine
                ),
                model_verdicts=tuple(
                    v for v in verdicts if v.target_model == name and v.response_id is None
                ),
            )
        )
    return tuple(panels)


def _qa(session: Session, item_id: int, rater_id: int | None, verdicts: list[Verdict]) -> ItemQA:
    if rater_id is None:
        return ItemQA(label=None, flags=frozenset(), note="")
    label = next(
        (
            v.label
            for v in verdicts
            if v.rater.id == rater_id and v.target_model is None and v.status is VerdictStatus.OK
        ),
        None,
    )
    flags, note = item_checklist(session, item_id, rater_id)
    return ItemQA(label=label, flags=flags, note=note)
