"""The store: one engine and the query objects built on it."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from w2c_tui.db.assignments import AssignmentStore
from w2c_tui.db.datasets import DatasetQueries
from w2c_tui.db.engine import make_engine
from w2c_tui.db.guidelines import GuidelineStore
from w2c_tui.db.imports import ImportWriter
from w2c_tui.db.item_qa import ItemQAQueries
from w2c_tui.db.items import ItemQueries
from w2c_tui.db.labels import LabelStore
from w2c_tui.db.migrate import current_revision, head_revision, upgrade
from w2c_tui.db.ratings import RatingQueries
from w2c_tui.db.runs import RunStore
from w2c_tui.db.team import TeamQueries


@dataclass(frozen=True)
class Store:
    """Everything the services need from the database."""

    engine: Engine
    datasets: DatasetQueries
    items: ItemQueries
    labels: LabelStore
    imports: ImportWriter
    ratings: RatingQueries
    runs: RunStore
    assignments: AssignmentStore
    guidelines: GuidelineStore
    team: TeamQueries
    item_qa: ItemQAQueries

    @classmethod
    def open(cls, url: str, *, migrate: bool = True) -> Store:
        """Open (and by default upgrade) the database at `url`."""
        engine = make_engine(url, migrate=migrate)
        return cls(
            engine=engine,
            datasets=DatasetQueries(engine),
            items=ItemQueries(engine),
            labels=LabelStore(engine),
            imports=ImportWriter(engine),
            ratings=RatingQueries(engine),
            runs=RunStore(engine),
            assignments=AssignmentStore(engine),
            guidelines=GuidelineStore(engine),
            team=TeamQueries(engine),
            item_qa=ItemQAQueries(engine),
        )

    def revision(self) -> tuple[str | None, str]:
        """(the database's revision, the newest known)."""
        return current_revision(self.engine), head_revision()

    def upgrade(self) -> None:
        """Apply pending migrations."""
        upgrade(self.engine)

    def close(self) -> None:
        """Release connections."""
        self.engine.dispose()
