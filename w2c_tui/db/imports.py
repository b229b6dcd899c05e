"""Storing an import bundle: all of a file in one transaction, or none of it."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, replace

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.common import (
    chunked,
    dataset_row,
    ids_by,
    rater_row,
    refuse_name,
    target_model_row,
)
from w2c_tui.db.convert import dumps
from w2c_tui.db.import_items import store_items
from w2c_tui.db.label_write import current_verdict
from w2c_tui.db.tables import (
    DatasetRow,
    ImportLogRow,
    ItemRow,
    LabelRow,
    RaterRow,
    ResponseRow,
    TargetModelRow,
)
from w2c_tui.db.when2call_labels import when2call_row
from w2c_tui.domain.errors import StrictImportError
from w2c_tui.domain.labels import VerdictStatus
from w2c_tui.domain.records import (
    ImportBundle,
    ImportReport,
    RaterSpec,
    VerdictRecord,
)


class _DryRun(Exception):
    """Raised inside the transaction to roll a dry run back."""


class ImportWriter:
    """Applies validated bundles to the store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def apply(
        self, bundle: ImportBundle, dataset: str, *, dry_run: bool = False, strict: bool = False
    ) -> ImportReport:
        """Store `bundle` into `dataset`; report what changed (nothing on dry runs)."""
        report = ImportReport(
            path=bundle.path, kind=bundle.kind, dataset=dataset, notes=bundle.notes, dry_run=dry_run
        )
        try:
            with Session(self.engine) as session, session.begin():
                if bundle.items:
                    ds = self._dataset(session, dataset, bundle)
                else:
                    ds = dataset_row(session, dataset)
                assert ds.id is not None
                report = store_items(session, ds.id, bundle.items, report)
                if strict and report.items_changed:
                    raise StrictImportError(
                        f"{bundle.path}: {len(report.items_changed)} item(s) differ from the "
                        f"stored version (first: {report.items_changed[0]}); nothing imported"
                    )
                report = self._results(session, ds.id, bundle, report)
                if strict and report.unknown_records:
                    raise StrictImportError(
                        f"{bundle.path}: {report.unknown_records} record(s) name "
                        f"{len(report.unknown_uuids)} uuid(s) not in dataset {dataset!r} "
                        f"(first: {report.unknown_uuids[0]}); nothing imported"
                    )
                if dry_run:
                    raise _DryRun
                if report.changed_nothing:
                    return report  # a re-import leaves no trace, not even a log row
                session.add(
                    ImportLogRow(
                        path=bundle.path,
                        kind=bundle.kind,
                        sha256=bundle.sha256,
                        dataset_id=ds.id,
                        report_json=json.dumps(asdict(report)),
                    )
                )
        except _DryRun:
            pass
        return report

    @staticmethod
    def _dataset(session: Session, name: str, bundle: ImportBundle) -> DatasetRow:
        row = session.exec(select(DatasetRow).where(DatasetRow.name == name)).first()
        if row is None:
            refuse_name(name, "dataset")
            row = DatasetRow(
                name=name, kind=bundle.kind, source_path=bundle.path, sha256=bundle.sha256
            )
            session.add(row)
            session.flush()
        return row

    def _results(
        self, session: Session, dataset_id: int, bundle: ImportBundle, report: ImportReport
    ) -> ImportReport:
        if not bundle.responses and not bundle.verdicts:
            return report
        wanted = {r.uuid for r in bundle.responses} | {v.uuid for v in bundle.verdicts}
        in_dataset = ids_by(
            session, ItemRow.uuid, ItemRow.id, col(ItemRow.dataset_id) == dataset_id
        )
        item_ids = {uuid: item_id for uuid, item_id in in_dataset.items() if uuid in wanted}
        unknown = sorted(wanted - item_ids.keys())
        unknown_records = sum(1 for r in bundle.responses if r.uuid not in item_ids) + sum(
            1 for v in bundle.verdicts if v.uuid not in item_ids
        )
        response_ids, new_responses, same_responses = self._responses(session, bundle, item_ids)
        new_verdicts, same_verdicts, invalid = self._verdicts(
            session, bundle, item_ids, response_ids
        )
        return replace(
            report,
            responses_new=new_responses,
            responses_unchanged=same_responses,
            verdicts_new=new_verdicts,
            verdicts_unchanged=same_verdicts,
            verdicts_invalid=invalid,
            unknown_uuids=tuple(unknown),
            unknown_records=unknown_records,
        )

    @staticmethod
    def _responses(
        session: Session, bundle: ImportBundle, item_ids: dict[str, int]
    ) -> tuple[dict[int, int], int, int]:
        ids: dict[int, int] = {}
        new = same = 0
        known: dict[tuple[int, int], list[ResponseRow]] = defaultdict(list)
        relevant = {item_ids[r.uuid] for r in bundle.responses if r.uuid in item_ids}
        for chunk in chunked(sorted(relevant)):
            for row in session.exec(
                select(ResponseRow)
                .where(col(ResponseRow.item_id).in_(chunk))
                .order_by(col(ResponseRow.id))
            ).all():
                known[(row.item_id, row.target_model_id)].append(row)
        for index, record in enumerate(bundle.responses):
            item_id = item_ids.get(record.uuid)
            if item_id is None:
                continue
            model = _model(session, record.target_model)
            assert model.id is not None
            existing = known[(item_id, model.id)]
            match = next((r for r in existing if r.text == record.text), None)
            if match is None:
                match = ResponseRow(
                    item_id=item_id,
                    target_model_id=model.id,
                    text=record.text,
                    sample_index=len(existing),
                    source=bundle.path,
                    meta_json=dumps(record.meta),
                )
                session.add(match)
                session.flush()
                existing.append(match)
                new += 1
            else:
                same += 1
            assert match.id is not None
            ids[index] = match.id
        return ids, new, same

    @staticmethod
    def _verdicts(
        session: Session,
        bundle: ImportBundle,
        item_ids: dict[str, int],
        response_ids: dict[int, int],
    ) -> tuple[int, int, int]:
        new = same = invalid = 0
        for record in bundle.verdicts:
            item_id = item_ids.get(record.uuid)
            if item_id is None:
                continue
            rater = _rater(session, record.rater)
            assert rater.id is not None
            model_id = None
            if record.target_model is not None:
                model = _model(session, record.target_model)
                model_id = model.id
            response_id = (
                response_ids.get(record.response_index)
                if record.response_index is not None
                else None
            )
            if record.response_index is not None and response_id is None:
                continue
            current = current_verdict(session, rater.id, item_id, model_id, response_id)
            if current is not None and _same(current, record):
                same += 1
                continue
            if current is not None:
                current.is_current = False
                session.add(current)
            session.add(
                when2call_row(
                    rater_id=rater.id,
                    item_id=item_id,
                    model_id=model_id,
                    response_id=response_id,
                    label=record.label.value if record.label else None,
                    status=record.status.value,
                    raw=record.raw,
                    scores_json=dumps(record.scores),
                    source=bundle.path,
                    supersedes_id=current.id if current else None,
                )
            )
            session.flush()
            new += 1
            invalid += record.status is VerdictStatus.INVALID
        return new, same, invalid


def _model(session: Session, name: str) -> TargetModelRow:
    """target_model_row, remembered for the rest of this session's transaction."""
    cache: dict[str, TargetModelRow] = session.info.setdefault("w2c_models", {})
    if name not in cache:
        cache[name] = target_model_row(session, name)
    return cache[name]


def _rater(session: Session, spec: RaterSpec) -> RaterRow:
    """rater_row, remembered for the rest of this session's transaction."""
    cache: dict[str, RaterRow] = session.info.setdefault("w2c_raters", {})
    key = spec.key()
    if key not in cache:
        cache[key] = rater_row(session, spec)
    return cache[key]


def _same(row: LabelRow, record: VerdictRecord) -> bool:
    return (
        row.value == (record.label.value if record.label else None)
        and row.status == record.status.value
        and row.raw == record.raw
        and json.loads(row.scores_json or "{}") == record.scores
    )
