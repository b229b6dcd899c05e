"""The labels export: every human's current labels with the item, its gold, the response
read, QA flags, notes and timestamps."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.checklist import NOTE, YES, checklist_rows
from w2c_tui.db.common import target_model_names
from w2c_tui.db.tables import (
    DatasetRow,
    GuidelineRow,
    ItemRow,
    LabelRow,
    RaterRow,
    ResponseRow,
)
from w2c_tui.db.when2call_labels import when2call
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import LabelRecord


def export_labels(engine: Engine, dataset: str | None = None) -> list[LabelRecord]:
    """Every human's current labels, with flags, notes and timestamps, in item order."""
    with Session(engine) as session:
        models = target_model_names(session)
        query = (
            sa_select(
                LabelRow,
                col(RaterRow.name),
                col(ItemRow.uuid),
                col(ItemRow.position),
                col(DatasetRow.name),
                col(ItemRow.gold),
                col(ItemRow.question),
                col(ResponseRow.text),
            )
            .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
            .outerjoin(ResponseRow, col(ResponseRow.id) == col(LabelRow.response_id))
            .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
            .join(DatasetRow, col(DatasetRow.id) == col(ItemRow.dataset_id))
            .where(col(RaterRow.kind) == RaterKind.HUMAN.value, when2call())
            .order_by(col(DatasetRow.name), col(ItemRow.position), col(LabelRow.id))
        )
        if dataset is not None:
            query = query.where(col(DatasetRow.name) == dataset)
        rows = session.execute(query).all()
        history: dict[tuple[int, int, int | None, int | None], list[LabelRow]] = defaultdict(list)
        for verdict, *_ in rows:
            key = (
                verdict.rater_id,
                verdict.item_id,
                verdict.target_model_id,
                verdict.response_id,
            )
            history[key].append(verdict)
        flags, notes = _qa_state(session)
        versions = dict(session.exec(select(GuidelineRow.id, GuidelineRow.version)).all())
        records = []
        for verdict, annotator, uuid, _position, ds_name, gold, question, response in rows:
            if not verdict.is_current:
                continue
            key = (
                verdict.rater_id,
                verdict.item_id,
                verdict.target_model_id,
                verdict.response_id,
            )
            item_level = verdict.target_model_id is None
            qa_key = (verdict.rater_id, verdict.item_id)
            records.append(
                LabelRecord(
                    annotator=annotator,
                    dataset=ds_name,
                    item_uuid=uuid,
                    target_model=models.get(verdict.target_model_id)
                    if verdict.target_model_id
                    else None,
                    label=Label(verdict.value) if verdict.value else None,
                    status=VerdictStatus(verdict.status or VerdictStatus.OK.value),
                    flags=tuple(sorted(flags.get(qa_key, ()))) if item_level else (),
                    note=notes.get(qa_key, "") if item_level else "",
                    created_at=verdict.created_at,
                    first_labelled_at=min(v.created_at for v in history[key]),
                    n_edits=len(history[key]) - 1,
                    guideline_version=versions.get(verdict.guideline_id)
                    if verdict.guideline_id
                    else None,
                    seen=verdict.seen,
                    gold=Label(gold) if gold else None,
                    question=question,
                    response=response,
                )
            )
        records.extend(
            _qa_only(
                session,
                flags,
                notes,
                dataset,
                {(r.annotator, r.item_uuid, r.dataset) for r in records if r.target_model is None},
            )
        )
        return records


def _qa_state(
    session: Session,
) -> tuple[dict[tuple[int, int], set[str]], dict[tuple[int, int], str]]:
    """(rater, item) → flags switched on now, and → the current note (checklist answers)."""
    flags: dict[tuple[int, int], set[str]] = defaultdict(set)
    notes: dict[tuple[int, int], str] = {}
    for rater_id, item_id, question, value in session.exec(
        select(LabelRow.rater_id, LabelRow.item_id, LabelRow.question, LabelRow.value).where(
            checklist_rows(), col(LabelRow.is_current).is_(True)
        )
    ).all():
        if question == NOTE:
            notes[(rater_id, item_id)] = value or ""
        elif value == YES:
            flags[(rater_id, item_id)].add(question)
    return flags, notes


def _qa_only(
    session: Session,
    flags: dict[tuple[int, int], set[str]],
    notes: dict[tuple[int, int], str],
    dataset: str | None,
    seen: set[tuple[str, str, str]],
) -> list[LabelRecord]:
    """Items with flags or a note but no item-level label still get a record."""
    keys = {k for k, v in flags.items() if v} | {k for k, v in notes.items() if v}
    out: list[LabelRecord] = []
    for rater_id, item_id in sorted(keys):
        rater = session.get(RaterRow, rater_id)
        item = session.get(ItemRow, item_id)
        ds = session.get(DatasetRow, item.dataset_id) if item else None
        if rater is None or item is None or ds is None:
            continue
        annotator, uuid, ds_name = rater.name, item.uuid, ds.name
        if (dataset is not None and ds_name != dataset) or (annotator, uuid, ds_name) in seen:
            continue
        when: list[datetime] = sorted(
            session.exec(
                select(LabelRow.created_at).where(
                    col(LabelRow.item_id) == item_id,
                    col(LabelRow.rater_id) == rater_id,
                    checklist_rows(),
                )
            ).all()
        )
        out.append(
            LabelRecord(
                annotator=annotator,
                dataset=ds_name,
                item_uuid=uuid,
                target_model=None,
                label=None,
                status=VerdictStatus.MISSING,
                flags=tuple(sorted(flags.get((rater_id, item_id), ()))),
                note=notes.get((rater_id, item_id), ""),
                created_at=when[-1],
                first_labelled_at=when[0],
                n_edits=0,
                gold=Label(item.gold) if item.gold else None,
                question=item.question,
            )
        )
    return out
