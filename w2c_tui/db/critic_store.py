"""Storing CriticTool files: a dataset file's samples, a predictions file matched to them.

Idempotent: the same file (by sha256) again changes nothing. A predictions file attaches to
the dataset whose samples have the same content hashes (`item_sha256`); a sample it has that
the dataset lacks is refused by sample id. Each import is one transaction.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from sqlalchemy import Engine, insert
from sqlmodel import Session, col, func, select

from w2c_tui.db.tables import DatasetRow
from w2c_tui.db.tables_critic import CriticFileRow, CriticPredictionRow, CriticSampleRow
from w2c_tui.db.writes import write_session
from w2c_tui.domain.critictool import CriticFile, SampleError
from w2c_tui.domain.errors import InputError, NotFoundError


@dataclass(frozen=True)
class StoredFile:
    """One stored CriticTool file (its text is read back through the parser for metrics)."""

    dataset: str
    name: str
    model: str | None
    text: str
    kind: dict[str, object]


class CriticStore:
    """CriticTool datasets, files and predictions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def dataset_for(self, hashes: list[str]) -> str | None:
        """The CriticTool dataset holding the most of these sample hashes (None: none)."""
        with Session(self.engine) as session:
            query = (
                select(DatasetRow.name, func.count())
                .join(CriticSampleRow, col(CriticSampleRow.dataset_id) == col(DatasetRow.id))
                .where(col(CriticSampleRow.item_sha256).in_(hashes[:500]))
                .group_by(col(DatasetRow.name))
                .order_by(func.count().desc())
            )
            found = session.exec(query).first()
            return found[0] if found else None

    def store(
        self, critic: CriticFile, dataset: str, model: str | None, *, dry_run: bool = False
    ) -> tuple[int, int, int]:
        """Store `critic` in `dataset`: (samples new, samples already there, predictions new)."""
        with write_session(self.engine, busy_ms=30_000) as session:
            ds = session.exec(select(DatasetRow).where(DatasetRow.name == dataset)).first()
            kind = f"critictool_{critic.kind.source}"
            if ds is None:  # a predictions file carries its dataset's records too
                ds = DatasetRow(name=dataset, kind=kind, source_path=critic.path)
                session.add(ds)
                session.flush()
            elif ds.kind != kind:
                raise InputError(
                    critic.path,
                    f"dataset {dataset!r} is a {ds.kind} dataset, this is a {kind} file",
                    field="dataset",
                )
            assert ds.id is not None
            existing = {
                r.sample_id: r
                for r in session.exec(
                    select(CriticSampleRow).where(CriticSampleRow.dataset_id == ds.id)
                )
            }
            new = 0
            rows: dict[str, int] = {}
            for position, sample in enumerate(critic.samples):
                known = existing.get(sample.sample_id)
                if known is not None:
                    if known.item_sha256 != sample.item_sha256:
                        raise SampleError(
                            critic.path,
                            sample.sample_id,
                            "(record)",
                            f"differs from the sample of that id in dataset {dataset!r}",
                            line=sample.line,
                        )
                    assert known.id is not None
                    rows[sample.sample_id] = known.id
                    continue
                if critic.kind.has_predictions and existing:
                    raise SampleError(
                        critic.path,
                        sample.sample_id,
                        "(sample id)",
                        f"not a sample of dataset {dataset!r}",
                        line=sample.line,
                    )
                row = CriticSampleRow(
                    dataset_id=ds.id,
                    sample_id=sample.sample_id,
                    position=len(existing) + position,
                    source=sample.source,
                    error_type=sample.error_type,
                    item_sha256=sample.item_sha256,
                    raw_json=sample.raw_json,
                    line=sample.line,
                )
                session.add(row)
                session.flush()
                assert row.id is not None
                rows[sample.sample_id] = row.id
                new += 1
            predictions = self._file(session, critic, ds.id, model, rows)
            if dry_run:
                session.rollback()
            else:
                session.commit()
        return new, len(critic.samples) - new, predictions

    @staticmethod
    def _file(
        session: Session,
        critic: CriticFile,
        dataset_id: int,
        model: str | None,
        rows: dict[str, int],
    ) -> int:
        """The file itself and, for a predictions file, its predictions (0 when stored before)."""
        known = session.exec(
            select(CriticFileRow.id).where(
                CriticFileRow.dataset_id == dataset_id, CriticFileRow.sha256 == critic.sha256
            )
        ).first()
        if known is not None:
            return 0
        with open(critic.path, encoding="utf-8-sig") as handle:
            text = handle.read()
        file_row = CriticFileRow(
            dataset_id=dataset_id,
            name=critic.path.replace("\\", "/").rsplit("/", 1)[-1],
            source_path=critic.path,
            sha256=critic.sha256,
            kind_json=json.dumps(asdict(critic.kind)),
            model=model if critic.kind.has_predictions else None,
            text=text,
        )
        session.add(file_row)
        session.flush()
        if not critic.kind.has_predictions:
            return 0
        values = [
            {
                "sample_id": rows[s.sample_id],
                "file_id": file_row.id,
                "model": model or "model",
                "predictions_json": json.dumps(list(s.predictions or ())),
            }
            for s in critic.samples
        ]
        session.execute(insert(CriticPredictionRow), values)
        return len(values)

    def files(
        self, dataset: str | None = None, model: str | None = None, *, every: bool = False
    ) -> list[StoredFile]:
        """Stored predictions files (of `dataset`, of `model`; `every`: the dataset files
        too, first), in import order."""
        with Session(self.engine) as session:
            query = (
                select(CriticFileRow, DatasetRow.name)
                .join(DatasetRow, col(DatasetRow.id) == col(CriticFileRow.dataset_id))
                .order_by(col(CriticFileRow.model).is_not(None), col(CriticFileRow.id))
            )
            if not every:
                query = query.where(col(CriticFileRow.model).is_not(None))
            if dataset is not None:
                if (
                    session.exec(select(DatasetRow).where(DatasetRow.name == dataset)).first()
                    is None
                ):
                    raise NotFoundError(f"no dataset named {dataset!r}")
                query = query.where(DatasetRow.name == dataset)
            if model is not None:
                query = query.where(CriticFileRow.model == model)
            return [
                StoredFile(name, row.name, row.model, row.text, json.loads(row.kind_json))
                for row, name in session.exec(query)
            ]
