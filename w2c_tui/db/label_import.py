"""Human labels from a file into the store: the whole file in one transaction, or nothing.

Each row is new (the annotator had no label on the unit), unchanged (the same label), replaced
(another label: the new one supersedes it, the old one stays as history) or, with
`replace=False`, kept (the existing label stays and the row's is not recorded). Rows that
cannot be applied (an unknown item or response) refuse the whole file, every one named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.checklist import current_note, write_flag, write_note
from w2c_tui.db.common import dataset_row, ids_by, rater_row
from w2c_tui.db.label_write import LabelWrite, current_verdict, write_label
from w2c_tui.db.tables import ItemRow, ResponseRow, TargetModelRow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.refusals import refused_rows
from w2c_tui.domain.team import LabelRow


@dataclass(frozen=True, slots=True)
class LabelReplaced:
    """A row whose label differs from the annotator's current one (replaced, or kept)."""

    line: int
    annotator: str
    uuid: str
    target_model: str | None
    old: Label | None
    new: Label | None


@dataclass
class LabelImportReport:
    """What `w2c labels import` did (or would do, on a dry run)."""

    path: str
    dataset: str
    rows: int
    labels_new: int = 0
    labels_unchanged: int = 0
    labels_replaced: int = 0
    labels_kept: int = 0
    notes_new: int = 0
    notes_replaced: int = 0
    notes_kept: int = 0
    flags_new: int = 0
    annotators: list[str] = field(default_factory=list)
    replaced: list[LabelReplaced] = field(default_factory=list)
    """Labels replaced (or, with replace=False, kept): old → new, by line."""
    dry_run: bool = False
    replace: bool = True

    @property
    def changed(self) -> bool:
        """Whether the import wrote anything."""
        wrote = self.labels_new or self.labels_replaced or self.notes_new or self.notes_replaced
        return bool(wrote or self.flags_new) and not self.dry_run


class _DryRun(Exception):
    """Raised inside the transaction to roll a dry run back."""


class LabelImporter:
    """Applies validated label rows."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def apply(
        self,
        path: str,
        rows: list[LabelRow],
        dataset: str,
        *,
        dry_run: bool = False,
        replace: bool = True,
    ) -> LabelImportReport:
        """Store every row as its annotator's label, note and flags; report what changed.
        `replace=False` keeps every existing label and note (reported as kept)."""
        result: list[LabelImportReport] = []

        def write() -> None:
            report = LabelImportReport(
                path=path, dataset=dataset, rows=len(rows), dry_run=dry_run, replace=replace
            )
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
        items = ids_by(session, ItemRow.uuid, ItemRow.id, col(ItemRow.dataset_id) == ds.id)
        raters: dict[str, int] = {}
        refused: list[InputError] = []
        for row in rows:
            try:
                item_id, model_id, response_id = self._unit(session, path, row, dataset, items)
            except InputError as error:
                refused.append(error)
                continue
            if refused:
                continue  # the file is refused: only look for more refused rows
            if row.annotator not in raters:
                rater = rater_row(session, RaterSpec(RaterKind.HUMAN, row.annotator))
                assert rater.id is not None
                raters[row.annotator] = rater.id
            rater_id = raters[row.annotator]
            if row.label is not None or row.withdrawn:
                current = current_verdict(session, rater_id, item_id, model_id, response_id)
                old = Label(current.value) if current is not None and current.value else None
                if old == row.label:
                    report.labels_unchanged += 1
                elif old is not None and not report.replace:
                    report.labels_kept += 1
                    report.replaced.append(self._replaced(row, old))
                else:
                    write_label(
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
                    if old is None:
                        report.labels_new += 1
                    else:
                        report.labels_replaced += 1
                        report.replaced.append(self._replaced(row, old))
            report.flags_new += self._flags(session, rater_id, item_id, row.flags)
            self._note(session, rater_id, item_id, row.note, report)
        if refused:
            raise refused_rows(path, refused)
        report.annotators = sorted(raters)

    @staticmethod
    def _replaced(row: LabelRow, old: Label) -> LabelReplaced:
        return LabelReplaced(row.line, row.annotator, row.uuid, row.target_model, old, row.label)

    def _unit(
        self, session: Session, path: str, row: LabelRow, dataset: str, items: dict[str, int]
    ) -> tuple[int, int | None, int | None]:
        """(item id, target model id, response id) of the row's unit; InputError if none."""
        if row.dataset is not None and row.dataset != dataset:
            raise InputError(
                path,
                f"names dataset {row.dataset!r}, importing into {dataset!r}",
                row.line,
                "dataset",
            )
        item_id = items.get(row.uuid)
        if item_id is None:
            raise InputError(path, f"no item {row.uuid!r} in dataset {dataset!r}", row.line, "uuid")
        model_id, response_id = self._response(session, path, row, item_id)
        return item_id, model_id, response_id

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
        return sum(write_flag(session, rater_id, item_id, code, True) for code in flags)

    @staticmethod
    def _note(
        session: Session, rater_id: int, item_id: int, note: str | None, report: LabelImportReport
    ) -> None:
        """Store the note unless it is the annotator's current note already (or, without
        replace, unless the annotator has a note)."""
        if not note:
            return
        current = current_note(session, rater_id, item_id)
        if current == note:
            return
        if current and not report.replace:
            report.notes_kept += 1
            return
        write_note(session, rater_id, item_id, note)
        if current:
            report.notes_replaced += 1
        else:
            report.notes_new += 1


__all__ = ["LabelImportReport", "LabelImporter", "LabelReplaced"]
