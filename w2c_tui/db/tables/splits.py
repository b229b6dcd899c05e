"""A frozen dev/test split of a dataset's labelled units (`w2c split`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import utcnow


class DataSplitRow(SQLModel, table=True):
    """One dataset's split: its units (`units_json`: unit key → "dev" | "test"), how it was
    drawn, and how often the test part has been used."""

    __tablename__ = "data_split"
    __table_args__ = (UniqueConstraint("dataset_id", name="uq_data_split_dataset"),)
    id: int | None = Field(default=None, primary_key=True)
    dataset_id: int = Field(foreign_key="dataset.id")
    seed: int
    test_share: float
    units_json: str = Field(sa_column=Column(Text, nullable=False))
    test_uses: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow)
