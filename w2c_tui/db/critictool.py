"""Storing CriticTool files: samples as item rows with a side row, predictions as response rows
with a side row; a whole file in one transaction or nothing. A sample is its file's id within
its dataset (as in the official code); its content digest is the fingerprint a re-import under
that id must match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlalchemy import Engine
from sqlmodel import Session, col, func, select

from w2c_tui.db.common import refuse_name, target_model_row
from w2c_tui.db.convert import dumps
from w2c_tui.db.critictool_convert import first_question, item_tool, sample_values
from w2c_tui.db.critictool_predictions import NewPrediction, add_prediction, existing_prediction
from w2c_tui.db.tables import (
    CriticToolSampleRow,
    DatasetRow,
    ImportLogRow,
    ItemRow,
)
from w2c_tui.domain.critictool import CriticToolFile, Sample, SampleError
from w2c_tui.domain.critictool_stored import (
    CRITICTOOL_DATASET_KIND,
    CRITICTOOL_ITEM_KIND,
    PredictionSet,
)
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.records import ImportReport
from w2c_tui.domain.team import shuffle_key


class _DryRun(Exception):
    """Raised inside the transaction to roll a dry run back."""


def critictool_dataset(session: Session, name: str, path: str, create: bool) -> DatasetRow:
    """The CriticTool dataset `name` (created when `create`); another kind is refused."""
    row = session.exec(select(DatasetRow).where(DatasetRow.name == name)).first()
    if row is None:
        if not create:
            raise InputError(path, f"no CriticTool dataset named {name!r}")
        refuse_name(name, "dataset")
        row = DatasetRow(name=name, kind=CRITICTOOL_DATASET_KIND, source_path=path)
        session.add(row)
        session.flush()
    elif row.kind != CRITICTOOL_DATASET_KIND:
        raise InputError(
            path,
            f"dataset {name!r} holds {row.kind} items, not CriticTool samples: "
            "name another one with --dataset",
        )
    return row


class CriticToolWriter:
    """Writes CriticTool samples and predictions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def datasets_holding(self, samples: Sequence[tuple[str, str]]) -> list[str]:
        """Names of the CriticTool datasets that hold any of these (sample id, content digest)
        pairs: the same id with the same content."""
        wanted = set(samples)
        with Session(self.engine) as session:
            rows = session.exec(
                select(
                    DatasetRow.name, CriticToolSampleRow.sample_id, CriticToolSampleRow.item_sha256
                ).join(
                    CriticToolSampleRow, col(CriticToolSampleRow.dataset_id) == col(DatasetRow.id)
                )
            ).all()
        return sorted({name for name, sid, digest in rows if (sid, digest) in wanted})

    def apply(
        self,
        critic_file: CriticToolFile,
        dataset: str,
        *,
        predictions: Sequence[PredictionSet] = (),
        target_model: str | None = None,
        dry_run: bool = False,
    ) -> ImportReport:
        """Store the file's samples (new ids added, known ids checked against their content
        fingerprint) and, for a predictions file, the model's predictions; InputError leaves
        the store untouched."""
        path = critic_file.path
        kind = "critictool_predictions" if predictions else "critictool"
        report = ImportReport(path=path, kind=kind, dataset=dataset, dry_run=dry_run)
        try:
            with Session(self.engine) as session, session.begin():
                ds = critictool_dataset(session, dataset, path, create=True)
                assert ds.id is not None
                ids, report = self._samples(session, ds.id, critic_file, report)
                if predictions:
                    assert target_model is not None
                    report = self._predictions(
                        session, critic_file, ids, predictions, target_model, report
                    )
                if dry_run:
                    raise _DryRun
                if not report.changed_nothing:
                    session.add(
                        ImportLogRow(
                            path=path,
                            kind=kind,
                            sha256=critic_file.sha256,
                            dataset_id=ds.id,
                            report_json=dumps(
                                {
                                    "items_new": report.items_new,
                                    "responses_new": report.responses_new,
                                    "target_model": target_model,
                                }
                            ),
                        )
                    )
        except _DryRun:
            pass
        return report

    def _samples(
        self, session: Session, dataset_id: int, critic_file: CriticToolFile, report: ImportReport
    ) -> tuple[dict[str, int], ImportReport]:
        known = {
            sample_id: (item_id, digest)
            for sample_id, item_id, digest in session.exec(
                select(
                    CriticToolSampleRow.sample_id,
                    CriticToolSampleRow.item_id,
                    CriticToolSampleRow.item_sha256,
                ).where(col(CriticToolSampleRow.dataset_id) == dataset_id)
            ).all()
        }
        last = session.exec(
            select(func.max(ItemRow.position)).where(col(ItemRow.dataset_id) == dataset_id)
        ).one()
        position = -1 if last is None else int(last)
        ids: dict[str, int] = {}
        new: list[tuple[Sample, ItemRow]] = []
        for sample in critic_file.samples:
            if sample.sample_id in known:
                item_id, digest = known[sample.sample_id]
                if digest != sample.item_sha256:
                    raise SampleError(
                        critic_file.path,
                        sample.sample_id,
                        "(sample id)",
                        "the dataset already holds a different sample with this id "
                        "(import this file into another --dataset)",
                        line=sample.line,
                    )
                ids[sample.sample_id] = item_id
                continue
            position += 1
            item = self._item(sample, dataset_id, position)
            session.add(item)
            new.append((sample, item))
        session.flush()
        kind = critic_file.kind
        for sample, item in new:
            assert item.id is not None
            ids[sample.sample_id] = item.id
            session.add(
                CriticToolSampleRow(
                    item_id=item.id,
                    dataset_id=dataset_id,
                    variant=kind.variant,
                    cot=kind.cot,
                    mode=kind.mode,
                    source_path=critic_file.path,
                    **sample_values(sample),
                )
            )
        session.flush()
        unchanged = len(critic_file.samples) - len(new)
        return ids, replace(report, items_new=len(new), items_unchanged=unchanged)

    @staticmethod
    def _item(sample: Sample, dataset_id: int, position: int) -> ItemRow:
        return ItemRow(
            dataset_id=dataset_id,
            uuid=sample.sample_id,
            position=position,
            kind=CRITICTOOL_ITEM_KIND,
            question=first_question(sample),
            tools_json=dumps([dumps(item_tool(t)) for t in sample.tools]),
            answers_json="[]",
            gold=None,
            n_tools=len(sample.tools),
            source=sample.source,
            extra_json=dumps({"critictool": sample.source, "error_type": sample.error_type}),
            content_hash=sample.item_sha256,
            shuffle_key=shuffle_key(sample.sample_id),
            raw_line=sample.raw_json,
        )

    def _predictions(
        self,
        session: Session,
        critic_file: CriticToolFile,
        ids: dict[str, int],
        predictions: Sequence[PredictionSet],
        target_model: str,
        report: ImportReport,
    ) -> ImportReport:
        kind = critic_file.kind
        model = target_model_row(session, target_model)
        assert model.id is not None
        lines = {s.sample_id: s.line for s in critic_file.samples}
        new = unchanged = 0
        for pred in predictions:
            item_id = ids[pred.sample_id]
            mode = kind.mode if kind.source == "external" else None
            existing = existing_prediction(session, item_id, model.id, mode, kind.cot)
            rounds = dumps(list(pred.rounds))
            if existing is not None:
                if existing.rounds_json != rounds:
                    raise SampleError(
                        critic_file.path,
                        pred.sample_id,
                        "predictions",
                        f"model {target_model!r} already has different predictions stored for "
                        "this sample in this setting (import under another --target-model)",
                        line=lines.get(pred.sample_id),
                    )
                unchanged += 1
                continue
            add_prediction(
                session,
                NewPrediction(item_id, mode, kind.cot, pred.rounds, pred.parsed),
                model.id,
                raw_json=pred.raw_json,
                source_path=critic_file.path,
            )
            new += 1
        return replace(report, responses_new=new, responses_unchanged=unchanged)
