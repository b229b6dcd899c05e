"""The tables of labels: verdicts (When2Call labels, judges' readings, adjudications),
checklist flags and notes. An edit adds a row; the one it supersedes stays as history."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, func, text
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import one_current, utcnow

CURRENT_VERDICT_UNIT = (
    "rater_id",
    "item_id",
    func.coalesce(text("target_model_id"), 0),
    func.coalesce(text("response_id"), 0),
)
"""What one current verdict is unique over: a rater's reading of one unit (NULLs made equal)."""


class VerdictRow(SQLModel, table=True):
    """A rater's label; edits add a row that supersedes the earlier one, never overwrite it."""

    __tablename__ = "verdict"
    __table_args__ = (
        Index("ix_verdict_item_rater_current", "item_id", "rater_id", "is_current"),
        Index("ix_verdict_rater_current", "rater_id", "is_current"),
        Index("ix_verdict_response", "response_id"),
        one_current("uq_verdict_current", *CURRENT_VERDICT_UNIT),
    )
    id: int | None = Field(default=None, primary_key=True)
    rater_id: int = Field(foreign_key="rater.id")
    item_id: int = Field(foreign_key="item.id")
    target_model_id: int | None = Field(default=None, foreign_key="target_model.id")
    response_id: int | None = Field(default=None, foreign_key="response.id")
    label: str | None = None
    status: str = "ok"
    raw: str | None = Field(default=None, sa_column=Column(Text))
    scores_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    run_id: int | None = Field(default=None, foreign_key="run.id")
    source: str | None = None
    supersedes_id: int | None = Field(default=None, foreign_key="verdict.id")
    is_current: bool = True
    created_at: datetime = Field(default_factory=utcnow)
    seen: str | None = None
    """What the annotator had seen of the unit when labelling (domain.team.Seen); None for
    machines, imports and labels made before this was recorded."""
    guideline_id: int | None = Field(default=None, foreign_key="guideline.id")
    """The labelling guideline version in force when a human made this label."""


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
