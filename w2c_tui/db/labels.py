"""Human labels, QA flags and notes: one short transaction each, history never destroyed."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import rater_row, target_model_names, target_model_row
from w2c_tui.db.label_write import LabelWrite, write_label
from w2c_tui.db.tables import (
    DatasetRow,
    GuidelineRow,
    ItemRow,
    NoteRow,
    QAFlagRow,
    RaterRow,
    ResponseRow,
    VerdictRow,
)
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import LabelChange, LabelRecord
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.team import Seen


def human_spec(annotator: str) -> RaterSpec:
    """The rater identity of a human annotator."""
    return RaterSpec(kind=RaterKind.HUMAN, name=annotator)


class LabelStore:
    """Writes and reads human annotations."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def rater_id(
        self, annotator: str, *, create: bool = True, kind: RaterKind = RaterKind.HUMAN
    ) -> int | None:
        """The annotator's rater id (created on first use when `create`)."""
        spec = RaterSpec(kind=kind, name=annotator)
        if not create:
            with Session(self.engine) as session:
                found = session.exec(select(RaterRow.id).where(RaterRow.key == spec.key())).first()
                return int(found) if found is not None else None

        def create_it() -> int:
            with write_session(self.engine) as session, session.begin():
                row = rater_row(session, spec)
                assert row.id is not None
                return row.id

        return retry_write(create_it, deadline_s=10.0)

    def set_label(
        self,
        rater_id: int,
        item_id: int,
        response_id: int | None,
        label: Label | None,
        *,
        seen: Seen | None = None,
        source: str = "tui",
        deadline_s: float = 10.0,
        note: str | None = None,
    ) -> LabelChange | None:
        """Record `label` (None withdraws it) on a response, or on the item when no response.

        The earlier verdict stays in the table, marked not current; the new row points to it.
        Returns None when nothing changed. A busy database is retried until `deadline_s`;
        after that, or when the write cannot succeed, a WriteError says why.
        """
        return retry_write(
            lambda: self._set_label(rater_id, item_id, response_id, label, seen, source, note),
            deadline_s=deadline_s,
        )

    def _set_label(
        self,
        rater_id: int,
        item_id: int,
        response_id: int | None,
        label: Label | None,
        seen: Seen | None,
        source: str,
        note: str | None = None,
    ) -> LabelChange | None:
        with write_session(self.engine) as session, session.begin():
            item = session.get(ItemRow, item_id)
            if item is None:
                raise NotFoundError(f"no item with id {item_id}")
            model_id: int | None = None
            if response_id is not None:
                response = session.get(ResponseRow, response_id)
                if response is None or response.item_id != item_id:
                    raise NotFoundError(
                        f"response {response_id} is not a response to item {item.uuid}"
                    )
                model_id = response.target_model_id
            return write_label(
                session,
                LabelWrite(
                    rater_id=rater_id,
                    item_id=item_id,
                    dataset_id=item.dataset_id,
                    model_id=model_id,
                    response_id=response_id,
                    label=label,
                    seen=seen,
                    source=source,
                    raw=note,
                ),
            )

    def set_flag(self, rater_id: int, item_id: int, code: str, active: bool) -> None:
        """Switch a QA flag on or off (appends an event)."""
        with Session(self.engine) as session, session.begin():
            session.add(QAFlagRow(item_id=item_id, rater_id=rater_id, code=code, active=active))

    def set_note(self, rater_id: int, item_id: int, text: str) -> None:
        """Replace the annotator's note on an item (the earlier text stays in history)."""
        with Session(self.engine) as session, session.begin():
            session.add(NoteRow(item_id=item_id, rater_id=rater_id, text=text))

    def ensure_target_model(self, name: str, backend: str | None = None) -> int:
        """A target model id by name (created when new)."""
        with Session(self.engine) as session, session.begin():
            row = target_model_row(session, name, backend)
            assert row.id is not None
            return row.id

    def export(self, dataset: str | None = None) -> list[LabelRecord]:
        """Every human's current labels, with flags, notes and timestamps, in item order."""
        with Session(self.engine) as session:
            models = target_model_names(session)
            query = (
                sa_select(
                    VerdictRow,
                    col(RaterRow.name),
                    col(ItemRow.uuid),
                    col(ItemRow.position),
                    col(DatasetRow.name),
                )
                .join(RaterRow, col(RaterRow.id) == col(VerdictRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(VerdictRow.item_id))
                .join(DatasetRow, col(DatasetRow.id) == col(ItemRow.dataset_id))
                .where(col(RaterRow.kind) == RaterKind.HUMAN.value)
                .order_by(col(DatasetRow.name), col(ItemRow.position), col(VerdictRow.id))
            )
            if dataset is not None:
                query = query.where(col(DatasetRow.name) == dataset)
            rows = session.execute(query).all()
            history: dict[tuple[int, int, int | None, int | None], list[VerdictRow]] = defaultdict(
                list
            )
            for verdict, *_ in rows:
                key = (
                    verdict.rater_id,
                    verdict.item_id,
                    verdict.target_model_id,
                    verdict.response_id,
                )
                history[key].append(verdict)
            flags, notes = self._qa_state(session)
            versions = dict(session.exec(select(GuidelineRow.id, GuidelineRow.version)).all())
            records = []
            for verdict, annotator, uuid, _position, ds_name in rows:
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
                        label=Label(verdict.label) if verdict.label else None,
                        status=VerdictStatus(verdict.status),
                        flags=tuple(sorted(flags.get(qa_key, ()))) if item_level else (),
                        note=notes.get(qa_key, "") if item_level else "",
                        created_at=verdict.created_at,
                        first_labelled_at=min(v.created_at for v in history[key]),
                        n_edits=len(history[key]) - 1,
                        guideline_version=versions.get(verdict.guideline_id)
                        if verdict.guideline_id
                        else None,
                        seen=verdict.seen,
                    )
                )
            records.extend(
                self._qa_only(
                    session,
                    flags,
                    notes,
                    dataset,
                    {
                        (r.annotator, r.item_uuid, r.dataset)
                        for r in records
                        if r.target_model is None
                    },
                )
            )
            return records

    @staticmethod
    def _qa_state(
        session: Session,
    ) -> tuple[dict[tuple[int, int], set[str]], dict[tuple[int, int], str]]:
        flags: dict[tuple[int, int], set[str]] = defaultdict(set)
        for rater_id, item_id, code, active in session.exec(
            select(
                QAFlagRow.rater_id, QAFlagRow.item_id, QAFlagRow.code, QAFlagRow.active
            ).order_by(col(QAFlagRow.id))
        ).all():
            if active:
                flags[(rater_id, item_id)].add(code)
            else:
                flags[(rater_id, item_id)].discard(code)
        notes: dict[tuple[int, int], str] = {}
        for rater_id, item_id, text in session.exec(
            select(NoteRow.rater_id, NoteRow.item_id, NoteRow.text).order_by(col(NoteRow.id))
        ).all():
            notes[(rater_id, item_id)] = text
        return flags, notes

    @staticmethod
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
            stamps = list(
                session.exec(
                    select(QAFlagRow.created_at).where(
                        col(QAFlagRow.item_id) == item_id, col(QAFlagRow.rater_id) == rater_id
                    )
                ).all()
            )
            stamps += session.exec(
                select(NoteRow.created_at).where(
                    col(NoteRow.item_id) == item_id, col(NoteRow.rater_id) == rater_id
                )
            ).all()
            when: list[datetime] = sorted(stamps)
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
                )
            )
        return out
