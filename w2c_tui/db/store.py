"""The store: one engine and the query objects built on it."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, text

from w2c_tui.db.assignments import AssignmentStore
from w2c_tui.db.critictool import CriticToolWriter
from w2c_tui.db.critictool_labels import CriticToolLabelStore
from w2c_tui.db.critictool_queries import CriticToolQueries
from w2c_tui.db.datasets import DatasetQueries
from w2c_tui.db.engine import display_url, make_engine
from w2c_tui.db.guidelines import GuidelineStore
from w2c_tui.db.imports import ImportWriter
from w2c_tui.db.item_qa import ItemQAQueries
from w2c_tui.db.items import ItemQueries
from w2c_tui.db.label_schemas import SchemaStore
from w2c_tui.db.labels import LabelStore
from w2c_tui.db.migrate import current_revision, head_revision, upgrade
from w2c_tui.db.ratings import RatingQueries
from w2c_tui.db.review_places import PlaceStore
from w2c_tui.db.runs import RunStore
from w2c_tui.db.schema_label_import import SchemaLabelImport
from w2c_tui.db.schema_label_reads import SchemaLabelReads
from w2c_tui.db.schema_labels import SchemaLabelStore
from w2c_tui.db.splits import SplitStore
from w2c_tui.db.team import TeamQueries
from w2c_tui.db.tracking import TrackingStore
from w2c_tui.domain.database import DatabaseInfo

VERSION_QUERY = {"postgresql": "SHOW server_version", "sqlite": "SELECT sqlite_version()"}


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
    places: PlaceStore
    critictool_labels: CriticToolLabelStore
    critictool: CriticToolQueries
    critictool_writer: CriticToolWriter
    schemas: SchemaStore
    schema_labels: SchemaLabelStore
    schema_imports: SchemaLabelImport
    schema_reads: SchemaLabelReads
    splits: SplitStore
    tracking: TrackingStore

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
            places=PlaceStore(engine),
            critictool_labels=CriticToolLabelStore(engine),
            critictool=CriticToolQueries(engine),
            critictool_writer=CriticToolWriter(engine),
            schemas=SchemaStore(engine),
            schema_labels=SchemaLabelStore(engine),
            schema_imports=SchemaLabelImport(engine),
            schema_reads=SchemaLabelReads(engine),
            splits=SplitStore(engine),
            tracking=TrackingStore(engine),
        )

    def revision(self) -> tuple[str | None, str]:
        """(the database's revision, the newest known)."""
        return current_revision(self.engine), head_revision()

    def info(self) -> DatabaseInfo:
        """Which backend and server this is, where, and the schema revision."""
        url = self.engine.url
        backend = self.engine.dialect.name
        with self.engine.connect() as connection:
            version_sql = VERSION_QUERY.get(backend)
            version = connection.execute(text(version_sql)).scalar() if version_sql else None
        if version is None:
            info = self.engine.dialect.server_version_info or ()
            version = ".".join(str(part) for part in info) or "unknown"
        current, head = self.revision()
        return DatabaseInfo(
            url=display_url(url.render_as_string(hide_password=False)),
            backend=backend,
            server_version=str(version),
            host=url.host,
            port=url.port,
            database=url.database,
            user=url.username,
            revision=current,
            head=head,
        )

    def database_file(self) -> str | None:
        """The SQLite file behind the engine (None for a server database or :memory:)."""
        if self.engine.dialect.name != "sqlite":
            return None
        database = self.engine.url.database
        return database if database and database != ":memory:" else None

    def upgrade(self) -> None:
        """Apply pending migrations."""
        upgrade(self.engine)

    def close(self) -> None:
        """Release connections."""
        self.engine.dispose()
