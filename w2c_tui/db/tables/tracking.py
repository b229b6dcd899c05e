"""What was logged to an experiment tracker (MLflow), so that logging again updates instead of
duplicating (`w2c mlflow`, `w2c run start --mlflow`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import utcnow


class TrackingLogRow(SQLModel, table=True):
    """One thing (a run, an agreement document, a report) and one tracking URI: requested,
    logged (where: experiment, MLflow run, UI page; what: the digest) or failed (why)."""

    __tablename__ = "tracking_log"
    __table_args__ = (
        UniqueConstraint("subject", "ref", "tracking_uri", name="uq_tracking_log_subject"),
    )
    id: int | None = Field(default=None, primary_key=True)
    subject: str
    ref: str
    dataset: str
    run_id: int | None = Field(default=None, index=True)
    tracking_uri: str = Field(sa_column=Column(Text, nullable=False))
    status: str
    experiment_id: str | None = None
    mlflow_run_id: str | None = None
    url: str | None = Field(default=None, sa_column=Column(Text))
    digest: str | None = None
    error: str | None = Field(default=None, sa_column=Column(Text))
    requested_at: datetime = Field(default_factory=utcnow)
    logged_at: datetime | None = None
