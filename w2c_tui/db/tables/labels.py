"""The item-QA side tables: checklist flags and notes on items (append-only). When2Call labels
themselves are rows of the one label store (`tables.schema_labels`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import utcnow


class QAFlagRow(SQLModel, table=True):
    """A checklist flag switched on or off for an item by an annotator (append-only)."""

    __tablename__ = "qa_flag"
    __table_args__ = (Index("ix_qa_flag_item_rater", "item_id", "rater_id"),)
    id: int | None = Field(default=None, primary_key=True)
    item_id: int = Field(foreign_key="item.id")
    rater_id: int = Field(foreign_key="rater.id")
    code: str
    active: bool = True
    created_at: datetime = Field(default_factory=utcnow)


class NoteRow(SQLModel, table=True):
    """A free-text note on an item by an annotator (append-only; the latest is current)."""

    __tablename__ = "note"
    __table_args__ = (Index("ix_note_item_rater", "item_id", "rater_id"),)
    id: int | None = Field(default=None, primary_key=True)
    item_id: int = Field(foreign_key="item.id")
    rater_id: int = Field(foreign_key="rater.id")
    text: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)
