"""Importing answers to a schema's questions (`w2c labels import --schema`): every line of a
file in one transaction or nothing, each answer recorded through `write_answer`.

Each answer is reported as new (no current one), unchanged, replaced (the old one stays as
history) or, with `replace=False`, kept (the existing answer stays; the file's is refused). A
dry run does all of it and rolls back.
"""

from __future__ import annotations

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, rater_row
from w2c_tui.db.guidelines import current_guideline_id
from w2c_tui.db.schema_labels import AnswerWrite, current_answer, write_answer
from w2c_tui.db.tables import DatasetRow, ItemRow, ResponseRow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.refusals import refused_rows
from w2c_tui.domain.schema_labels import AnswerChange, AnswerLine, SchemaImportReport, Unit
from w2c_tui.domain.schemas import LabelSchema


def _units(
    session: Session, path: str, ds: DatasetRow, lines: list[AnswerLine]
) -> list[tuple[AnswerLine, Unit]]:
    """Each line's unit; InputError naming every line whose item or response is not there."""
    dataset = ds.name
    uuids = {line.item_uuid for line in lines}
    items = {
        uuid: item_id
        for uuid, item_id in session.exec(
            select(ItemRow.uuid, ItemRow.id).where(
                col(ItemRow.dataset_id) == ds.id, col(ItemRow.uuid).in_(uuids)
            )
        ).all()
        if item_id is not None
    }
    responses = {
        rid: item_id
        for rid, item_id in session.exec(
            select(ResponseRow.id, ResponseRow.item_id).where(
                col(ResponseRow.item_id).in_(list(items.values()))
            )
        ).all()
    }
    refused: list[InputError] = []
    units: list[tuple[AnswerLine, Unit]] = []
    for line in lines:
        if line.dataset is not None and line.dataset != dataset:
            message = f"names dataset {line.dataset!r}, importing into {dataset!r}"
            refused.append(InputError(path, message, line.line, "dataset"))
            continue
        found = items.get(line.item_uuid)
        if found is None:
            message = f"no item {line.item_uuid!r} in dataset {dataset!r}"
            refused.append(InputError(path, message, line.line, "item"))
            continue
        rid = line.response_id
        if rid is not None and responses.get(rid) != found:
            message = f"no response {rid} of item {line.item_uuid!r}"
            refused.append(InputError(path, message, line.line, "response"))
            continue
        units.append((line, Unit(found, rid)))
    if refused:
        raise refused_rows(path, refused)
    return units


class SchemaLabelImport:
    """Imports files of answers into the label store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def import_lines(
        self,
        path: str,
        schema: LabelSchema,
        dataset: str,
        lines: list[AnswerLine],
        *,
        replace: bool = True,
        dry_run: bool = False,
    ) -> SchemaImportReport:
        """Every line's answers in one transaction, or nothing: an unknown item or response
        refuses the whole file, each line named (see the module docstring)."""

        def write() -> SchemaImportReport:
            with write_session(self.engine) as session:
                report = self._write(session, path, schema, dataset, lines, replace, dry_run)
                if dry_run:
                    session.rollback()
                else:
                    session.commit()
                return report

        return retry_write(write, deadline_s=30.0)

    @staticmethod
    def _write(
        session: Session,
        path: str,
        schema: LabelSchema,
        dataset: str,
        lines: list[AnswerLine],
        replace: bool,
        dry_run: bool,
    ) -> SchemaImportReport:
        ds = dataset_row(session, dataset)
        units = _units(session, path, ds, lines)
        guideline = current_guideline_id(session, ds.id or 0)
        counts = {"new": 0, "replaced": 0, "unchanged": 0, "kept": 0}
        changes: list[AnswerChange] = []
        raters: dict[str, int] = {}
        for line, unit in units:
            if line.annotator not in raters:
                row = rater_row(session, RaterSpec(RaterKind.HUMAN, line.annotator))
                assert row.id is not None
                raters[line.annotator] = row.id
            rater = raters[line.annotator]
            for name, value in line.answers.items():
                before = current_answer(session, rater, unit, schema.name, name)
                old = before.value if before is not None else None
                if old == value:
                    counts["unchanged"] += 1
                    continue
                if old is not None:
                    where = (line.line, line.annotator, line.item_uuid, unit.response_id)
                    changes.append(AnswerChange(*where, name, old, value))
                    if not replace:
                        counts["kept"] += 1
                        continue
                write = AnswerWrite(
                    rater, unit, schema.name, name, value, f"import {path}", None, guideline
                )
                write_answer(session, write)
                counts["replaced" if old is not None else "new"] += 1
        return SchemaImportReport(
            path=path,
            schema=schema.name,
            dataset=dataset,
            rows=len(lines),
            annotators=tuple(sorted(raters)),
            changes=tuple(changes),
            replace=replace,
            dry_run=dry_run,
            **counts,
        )
