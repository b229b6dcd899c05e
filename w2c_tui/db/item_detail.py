"""One item for the review panes: the item, its responses with every current verdict, QA."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.checklist import item_checklist
from w2c_tui.db.convert import to_item, to_rater, to_verdict
from w2c_tui.db.tables import (
    AssignmentRow,
    DatasetRow,
    ItemRow,
    LabelRow,
    RaterRow,
    ResponseRow,
    TargetModelRow,
)
from w2c_tui.db.when2call_labels import when2call
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.models import ItemDetail, ItemQA, ModelPanel, Rater, Response, Verdict


class ItemDetails:
    """Reads one item with everything the review screen shows of it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def detail(self, item_id: int, rater_id: int | None) -> ItemDetail:
        """The item with its responses, every current verdict, and this annotator's QA."""
        with Session(self.engine) as session:
            found = session.exec(
                select(ItemRow, DatasetRow.name)
                .join(DatasetRow, col(DatasetRow.id) == col(ItemRow.dataset_id))
                .where(col(ItemRow.id) == item_id)
            ).first()
            if found is None:
                raise NotFoundError(f"no item with id {item_id}")
            row, dataset = found
            verdicts = _verdicts(session, item_id)
            responses = [
                Response(
                    id=r.id,
                    item_id=item_id,
                    target_model=name,
                    text=r.text,
                    created_at=r.created_at,
                )
                for r, name in session.exec(
                    select(ResponseRow, TargetModelRow.name)
                    .join(
                        TargetModelRow, col(TargetModelRow.id) == col(ResponseRow.target_model_id)
                    )
                    .where(col(ResponseRow.item_id) == item_id)
                    .order_by(col(ResponseRow.id))
                ).all()
            ]
            assigned = session.exec(
                select(AssignmentRow.response_id).where(
                    col(AssignmentRow.item_id) == item_id,
                    col(AssignmentRow.rater_id) == (rater_id if rater_id is not None else -1),
                    col(AssignmentRow.response_id).is_not(None),
                )
            ).all()
            qa = ItemQA(label=None, flags=frozenset(), note="")
            if rater_id is not None:
                flags, note = item_checklist(session, item_id, rater_id)
                qa = ItemQA(label=_qa_label(verdicts, rater_id), flags=flags, note=note)
            return ItemDetail(
                item=to_item(row, dataset),
                models=_panels(responses, verdicts),
                qa=qa,
                assigned=frozenset(int(r) for r in assigned if r is not None),
            )

    def verdicts_again(self, detail: ItemDetail, rater_id: int | None) -> ItemDetail:
        """`detail` with its verdicts (and the annotator's QA label) read again: what a label
        write changes. The item, its responses, the annotator's queue and QA checklist are
        taken from `detail` (a label write changes none of them)."""
        with Session(self.engine) as session:
            verdicts = _verdicts(session, detail.item.id)
        qa = detail.qa
        if rater_id is not None:
            qa = replace(qa, label=_qa_label(verdicts, rater_id))
        return replace(detail, models=_panels(detail.responses, verdicts), qa=qa)


def _verdicts(session: Session, item_id: int) -> list[Verdict]:
    """Every current When2Call verdict on the item, in the order they were written."""
    rows = session.exec(
        select(LabelRow, RaterRow, TargetModelRow.name)
        .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
        .outerjoin(TargetModelRow, col(TargetModelRow.id) == col(LabelRow.target_model_id))
        .where(
            col(LabelRow.item_id) == item_id,
            col(LabelRow.is_current).is_(True),
            when2call(),
        )
        .order_by(col(LabelRow.id))
    ).all()
    raters: dict[int, Rater] = {}
    verdicts = []
    for label, rater_row, model in rows:
        rater = raters.get(label.rater_id)
        if rater is None:
            rater = raters[label.rater_id] = to_rater(rater_row)
        verdicts.append(to_verdict(label, rater, model))
    return verdicts


def _panels(responses: Sequence[Response], verdicts: list[Verdict]) -> tuple[ModelPanel, ...]:
    """One panel per model (those with responses first, in response order), each response
    with its verdicts among `verdicts` (any it carried before are replaced) and the model's
    verdicts on the item."""
    names: list[str] = []
    for r in responses:
        if r.target_model not in names:
            names.append(r.target_model)
    for v in verdicts:
        if v.target_model and v.target_model not in names:
            names.append(v.target_model)
    return tuple(
        ModelPanel(
            target_model=name,
            responses=tuple(
                replace(r, verdicts=tuple(v for v in verdicts if v.response_id == r.id))
                for r in responses
                if r.target_model == name
            ),
            model_verdicts=tuple(
                v for v in verdicts if v.target_model == name and v.response_id is None
            ),
        )
        for name in names
    )


def _qa_label(verdicts: list[Verdict], rater_id: int) -> Label | None:
    """The annotator's current QA label on the item among `verdicts`."""
    return next(
        (
            v.label
            for v in verdicts
            if v.rater.id == rater_id and v.target_model is None and v.status is VerdictStatus.OK
        ),
        None,
    )
