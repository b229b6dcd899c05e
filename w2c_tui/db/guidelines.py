"""Versioned labelling guidelines per dataset, and which annotator has been shown which."""

from __future__ import annotations

import hashlib

from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, insert_ignore, rater_row
from w2c_tui.db.tables import GuidelineRow, GuidelineSeenRow, RaterRow, utcnow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.team import Guideline


def _guideline(row: GuidelineRow, dataset: str) -> Guideline:
    assert row.id is not None
    return Guideline(
        id=row.id,
        dataset=dataset,
        version=row.version,
        text=row.text,
        sha256=row.sha256,
        created_at=row.created_at,
        source_path=row.source_path,
    )


def current_guideline_id(session: Session, dataset_id: int) -> int | None:
    """The newest guideline version of a dataset (None when it has none)."""
    found = session.exec(
        select(GuidelineRow.id)
        .where(col(GuidelineRow.dataset_id) == dataset_id)
        .order_by(col(GuidelineRow.version).desc())
        .limit(1)
    ).first()
    return int(found) if found is not None else None


class GuidelineStore:
    """Reads and writes guideline versions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, dataset: str, text: str, source_path: str | None) -> tuple[Guideline, bool]:
        """Store `text` as the next version, unless it equals the newest (then not created)."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()

        def write() -> tuple[Guideline, bool]:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                ds = dataset_row(session, dataset)
                assert ds.id is not None
                newest = session.exec(
                    select(GuidelineRow)
                    .where(col(GuidelineRow.dataset_id) == ds.id)
                    .order_by(col(GuidelineRow.version).desc())
                    .limit(1)
                ).first()
                if newest is not None and newest.sha256 == digest:
                    return _guideline(newest, ds.name), False
                row = GuidelineRow(
                    dataset_id=ds.id,
                    version=(newest.version if newest else 0) + 1,
                    text=text,
                    sha256=digest,
                    source_path=source_path,
                )
                session.add(row)
                session.flush()
                return _guideline(row, ds.name), True

        return retry_write(write, deadline_s=30.0)

    def versions(self, dataset: str) -> list[Guideline]:
        """Every version, oldest first."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.exec(
                select(GuidelineRow)
                .where(col(GuidelineRow.dataset_id) == ds.id)
                .order_by(col(GuidelineRow.version))
            ).all()
            return [_guideline(r, ds.name) for r in rows]

    def latest(self, dataset: str) -> Guideline | None:
        """The newest version (None: the dataset has no guidelines)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            row = session.exec(
                select(GuidelineRow)
                .where(col(GuidelineRow.dataset_id) == ds.id)
                .order_by(col(GuidelineRow.version).desc())
                .limit(1)
            ).first()
            return _guideline(row, ds.name) if row else None

    def seen(self, annotator: str, guideline_id: int) -> bool:
        """Whether the annotator has been shown this version."""
        with Session(self.engine) as session:
            found = session.exec(
                select(func.count())
                .select_from(GuidelineSeenRow)
                .join(RaterRow, col(RaterRow.id) == col(GuidelineSeenRow.rater_id))
                .where(
                    col(GuidelineSeenRow.guideline_id) == guideline_id,
                    col(RaterRow.key) == RaterSpec(RaterKind.HUMAN, annotator).key(),
                )
            ).one()
            return bool(found)

    def mark_seen(self, annotator: str, guideline_id: int) -> None:
        """Remember that the annotator has been shown this version."""

        def write() -> None:
            with write_session(self.engine) as session, session.begin():
                rater = rater_row(session, RaterSpec(RaterKind.HUMAN, annotator))
                insert_ignore(
                    session,
                    GuidelineSeenRow,
                    {"rater_id": rater.id, "guideline_id": guideline_id, "seen_at": utcnow()},
                )

        retry_write(write, deadline_s=2.0)
