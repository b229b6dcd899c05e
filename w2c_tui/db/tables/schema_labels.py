"""The tables of schema labels: users' label schemas, and the answers of every schema's labels.

A `label` row is one rater's answer to one question of one schema on one unit (an item and,
for response units, a response). An edit adds a row that supersedes the current one; one
partial unique index keeps one current answer per rater, unit, schema and question.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, func, text
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import one_current, utcnow

CURRENT_LABEL_UNIT = (
    "rater_id",
    "item_id",
    func.coalesce(text("response_id"), 0),
    "schema_name",
    "question",
)
"""What one current label is unique over: a rater's answer to one question on one unit
(a NULL response made equal to every other)."""


class LabelSchemaRow(SQLModel, table=True):
    """A user's label schema: the TOML it was added from and its parsed form as JSON."""

    __tablename__ = "label_schema"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    toml: str = Field(sa_column=Column(Text, nullable=False))
    parsed_json: str = Field(sa_column=Column("json", Text, nullable=False))
    """The parsed schema (`LabelSchema.to_json`), for tools that do not read TOML."""
    created_at: datetime = Field(default_factory=utcnow)


class LabelRow(SQLModel, table=True):
    """One rater's answer to one question of a schema on one unit (None withdraws it)."""

    __tablename__ = "label"
    __table_args__ = (
        Index("ix_label_schema_current", "schema_name", "is_current"),
        Index("ix_label_item", "item_id"),
        one_current("uq_label_current", *CURRENT_LABEL_UNIT),
    )
    id: int | None = Field(default=None, primary_key=True)
    rater_id: int = Field(foreign_key="rater.id")
    item_id: int = Field(foreign_key="item.id")
    response_id: int | None = Field(default=None, foreign_key="response.id")
    schema_name: str
    """The schema's name (a built-in's or a `label_schema` row's)."""
    question: str
    value: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    source: str | None = None
    seen: str | None = None
    guideline_id: int | None = Field(default=None, foreign_key="guideline.id")
    raw: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    """A judge's reply that gave this answer (every row of its reading holds it); NULL for
    people."""
    supersedes_id: int | None = Field(default=None, foreign_key="label.id")
    is_current: bool = True
    created_at: datetime = Field(default_factory=utcnow)
