"""What was logged to an experiment tracker: one row per (subject, ref, tracking URI)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.tables import TrackingLogRow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.tracking import TrackingRecord, TrackingStatus, TrackingSubject


def _record(row: TrackingLogRow) -> TrackingRecord:
    def aware(value: datetime | None) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value

    return TrackingRecord(
        subject=TrackingSubject(row.subject),
        ref=row.ref,
        dataset=row.dataset,
        tracking_uri=row.tracking_uri,
        status=TrackingStatus(row.status),
        run_id=row.run_id,
        experiment_id=row.experiment_id,
        mlflow_run_id=row.mlflow_run_id,
        url=row.url,
        digest=row.digest,
        error=row.error,
        requested_at=aware(row.requested_at),
        logged_at=aware(row.logged_at),
    )


class TrackingStore:
    """Reads and writes the tracking log."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, subject: TrackingSubject, ref: str, uri: str) -> TrackingRecord | None:
        """The record of one thing at one URI, or None."""
        with Session(self.engine) as session:
            row = session.exec(
                select(TrackingLogRow).where(
                    col(TrackingLogRow.subject) == subject.value,
                    col(TrackingLogRow.ref) == ref,
                    col(TrackingLogRow.tracking_uri) == uri,
                )
            ).first()
            return _record(row) if row is not None else None

    def for_run(self, run_id: int) -> list[TrackingRecord]:
        """Every record of one run (one per tracking URI), oldest first."""
        return self.for_runs([run_id]).get(run_id, [])

    def for_runs(self, run_ids: list[int]) -> dict[int, list[TrackingRecord]]:
        """The records of several runs, by run id (one query)."""
        if not run_ids:
            return {}
        with Session(self.engine) as session:
            rows = session.exec(
                select(TrackingLogRow)
                .where(
                    col(TrackingLogRow.subject) == TrackingSubject.RUN.value,
                    col(TrackingLogRow.run_id).in_(run_ids),
                )
                .order_by(col(TrackingLogRow.id))
            ).all()
        out: dict[int, list[TrackingRecord]] = {}
        for row in rows:
            out.setdefault(row.run_id or 0, []).append(_record(row))
        return out

    def all(self, dataset: str | None = None) -> list[TrackingRecord]:
        """Every record (of one dataset), newest first."""
        with Session(self.engine) as session:
            query = select(TrackingLogRow).order_by(col(TrackingLogRow.id).desc())
            if dataset is not None:
                query = query.where(col(TrackingLogRow.dataset) == dataset)
            return [_record(r) for r in session.exec(query).all()]

    def save(self, record: TrackingRecord) -> TrackingRecord:
        """Insert or update the record of (subject, ref, URI); a request keeps what an earlier
        log found (where it went) and a failure keeps the digest of the last good log."""

        def write() -> TrackingRecord:
            with write_session(self.engine) as session, session.begin():
                row = session.exec(
                    select(TrackingLogRow).where(
                        col(TrackingLogRow.subject) == record.subject.value,
                        col(TrackingLogRow.ref) == record.ref,
                        col(TrackingLogRow.tracking_uri) == record.tracking_uri,
                    )
                ).first()
                if row is None:
                    row = TrackingLogRow(
                        subject=record.subject.value,
                        ref=record.ref,
                        dataset=record.dataset,
                        tracking_uri=record.tracking_uri,
                        status=record.status.value,
                    )
                row.status = record.status.value
                row.run_id = record.run_id
                row.dataset = record.dataset
                row.error = record.error
                for name in ("experiment_id", "mlflow_run_id", "url", "digest", "logged_at"):
                    value = getattr(record, name)
                    if value is not None:
                        setattr(row, name, value)
                if record.requested_at is not None:
                    row.requested_at = record.requested_at
                session.add(row)
                session.flush()
                return _record(row)

        return retry_write(write)
