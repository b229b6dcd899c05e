"""Tables of CriticTool data: each imported file whole, its samples, and models' predictions.

A CriticTool dataset is a `dataset` row of kind `critictool_internal` / `critictool_external`
with no When2Call items. The file's text is kept whole (`critic_file.text`), so the metrics
read it back through the same parser as at import (exact, kind included); `critic_sample` and
`critic_prediction` index what the screens and the matching need.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables import utcnow


class CriticFileRow(SQLModel, table=True):
    """One imported CriticTool file: a dataset file, or a model's predictions of one."""

    __tablename__ = "critic_file"
    __table_args__ = (UniqueConstraint("dataset_id", "sha256", name="uq_critic_file"),)
    id: int | None = Field(default=None, primary_key=True)
    dataset_id: int = Field(foreign_key="dataset.id")
    name: str
    """The file's name as imported (its kind is read from it as well as from the content)."""
    source_path: str
    sha256: str
    kind_json: str = Field(sa_column=Column(Text, nullable=False))
    model: str | None = None
    """Whose predictions (None: the dataset file itself)."""
    text: str = Field(sa_column=Column(Text, nullable=False))
    imported_at: datetime = Field(default_factory=utcnow)


class CriticSampleRow(SQLModel, table=True):
    """One sample of a CriticTool dataset."""

    __tablename__ = "critic_sample"
    __table_args__ = (
        UniqueConstraint("dataset_id", "sample_id", name="uq_critic_sample"),
        Index("ix_critic_sample_hash", "item_sha256"),
    )
    id: int | None = Field(default=None, primary_key=True)
    dataset_id: int = Field(foreign_key="dataset.id")
    sample_id: str
    position: int
    source: str
    error_type: str | None = None
    item_sha256: str
    raw_json: str = Field(sa_column=Column(Text, nullable=False))
    line: int


class CriticPredictionRow(SQLModel, table=True):
    """A model's raw output(s) for one sample, from one predictions file."""

    __tablename__ = "critic_prediction"
    __table_args__ = (UniqueConstraint("sample_id", "file_id", name="uq_critic_prediction"),)
    id: int | None = Field(default=None, primary_key=True)
    sample_id: int = Field(foreign_key="critic_sample.id")
    file_id: int = Field(foreign_key="critic_file.id")
    model: str
    predictions_json: str = Field(sa_column=Column(Text, nullable=False))
