"""Human labels from a file into the store: the whole file in one transaction, or nothing."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, rater_row
from w2c_tui.db.label_write import LabelWrite, write_label
from w2c_tui.db.tables import ItemRow, NoteRow, QAFlagRow, ResponseRow, TargetModelRow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.team import LabelRow


@dataclass
class LabelImportReport:
    """What `w2c labels import` did (or would do, on a dry run)."""

    path: str
    dataset: str
    rows: int
    labels_new: int = 0
    labels_unchanged: int = 0
    notes_new: int = 0
    flags_new: int = 0
    annotators: list[str] = field(default_factory=list)
    dry_run: bool = False

    @property
    def changed(self) -> bool:
        """Whether the import wrote anything."""
        return bool(self.labels_new or self.notes_new or self.flags_new) and not self.dry_run


class _DryRun(Exception):
    """Raised inside the transaction to roll a dry run back."""


class LabelImporter:
    """Applies validated label rows."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def apply(
        self, path: str, rows: list[LabelRow], dataset: str, *, dry_run: bool = False
    ) -> LabelImportReport:
        """Store every row as its annotator's label, note and flags; report what changed."""
        result: list[LabelImportReport] = []

        def write() -> None:
            report = LabelImportReport(path=path, dataset=dataset, rows=len(rows), dry_run=dry_run)
            result.clear()
            try:
                with write_session(self.engine, busy_ms=2000) as session, session.begin():
                    self._apply(session, path, rows, dataset, report)
                    result.append(report)
                    if dry_run:
                        raise _DryRun
            except _DryRun:
                pass

        retry_write(write, deadline_s=30.0)
        return result[0]

    def _apply(
        self,
        session: Session,
        path: str,
        rows: list[LabelRow],
        dataset: str,
        report: LabelImportReport,
    ) -> None:
        ds = dataset_row(session, dataset)
        assert ds.id is not None
        items = dict(
            session.exec(
                select(ItemRow.uuid, ItemRow.id).where(col(ItemRow.dataset_id) == ds.id)
            ).all()
        )
        raters: dict[str, int] = {}
        for row in rows:
            if row.dataset is not None and row.dataset != dataset:
                raise InputError(
                    path,
                    f"names dataset {row.dataset!r}, importing into {dataset!r}",
                    row.line,
                    "dataset",
                )
            item_id = items.get(row.uuid)
            if item_id is None:
                raise InputError(
                    path, f"no item {row.uuid!r} in dataset {dataset!r}", row.line, "uuid"
                )
            if row.annotator not in raters:
                rater = rater_row(session, RaterSpec(RaterKind.HUMAN, row.annotator))
                assert rater.id is not None
                raters[row.annotator] = rater.id
            rater_id = raters[row.annotator]
            model_id, response_id = self._response(session, path, row, item_id)
            if row.label is not None:
                change = write_label(
                    session,
                    LabelWrite(
                        rater_id=rater_id,
                        item_id=item_id,
                        dataset_id=ds.id,
                        model_id=model_id,
                        response_id=response_id,
                        label=row.label,
                        source=f"import {path}",
                    ),
                )
                if change is None:
                    report.labels_unchanged += 1
                else:
                    report.labels_new += 1
            report.flags_new += self._flags(session, rater_id, item_id, row.flags)
            report.notes_new += self._note(session, rater_id, item_id, row.note)
        report.annotators = sorted(raters)

    @staticmethod
    def _response(
        session: Session, path: str, row: LabelRow, item_id: int
    ) -> tuple[int | None, int | None]:
        """(target model id, response id) of the row's unit; (None, None) for item QA."""
        if row.target_model is None and row.response_id is None:
            return None, None
        query = select(ResponseRow.id, ResponseRow.target_model_id).where(
            col(ResponseRow.item_id) == item_id
        )
        if row.target_model is not None:
            query = query.join(
                TargetModelRow, col(TargetModelRow.id) == col(ResponseRow.target_model_id)
            ).where(col(TargetModelRow.name) == row.target_model)
        if row.response_id is not None:
            query = query.where(col(ResponseRow.id) == row.response_id)
        found = session.exec(query.order_by(col(ResponseRow.id).desc()).limit(1)).first()
        if found is None:
            what = (
                f"response {row.response_id}"
                if row.response_id is not None
                else f"response of model {row.target_model!r}"
            )
            field_name = "response_id" if row.response_id is not None else "target_model"
            raise InputError(path, f"item {row.uuid!r} has no {what}", row.line, field_name)
        response_id, model_id = found
        assert response_id is not None
        return int(model_id), int(response_id)

    @staticmethod
    def _flags(session: Session, rater_id: int, item_id: int, flags: tuple[str, ...]) -> int:
        """Switch on the flags that are not on yet (an import never switches one off)."""
        added = 0
        for code in flags:
            last = session.exec(
                select(QAFlagRow.active)
                .where(
                    col(QAFlagRow.item_id) == item_id,
                    col(QAFlagRow.rater_id) == rater_id,
                    col(QAFlagRow.code) == code,
                )
                .order_by(col(QAFlagRow.id).desc())
                .limit(1)
            ).first()
            if not last:
                session.add(QAFlagRow(item_id=item_id, rater_id=rater_id, code=code, active=True))
                added += 1
        return added

    @staticmethod
    def _note(session: Session, rater_id: int, item_id: int, note: str | None) -> int:
        """Store the note unless it is the annotator's current note already."""
        if not note:
            return 0
        current = session.exec(
            select(NoteRow.text)
            .where(col(NoteRow.item_id) == item_id, col(NoteRow.rater_id) == rater_id)
            .order_by(col(NoteRow.id).desc())
            .limit(1)
        ).first()
        if current == note:
            return 0
        session.add(NoteRow(item_id=item_id, rater_id=rater_id, text=note))
        return 1


__all__ = ["LabelImportReport", "LabelImporter"]
