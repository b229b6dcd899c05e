"""The tables of schema labels: users' label schemas, and the answers of every schema's labels.

A `label` row is one rater's answer to one question of one schema on one unit (an item and,
for response units, a response; for a model's log-probability reading of an item, the model).
When2Call labels (people's, judges', log-prob scorers', adjudications) are the `behaviour`
answers of the built-in schemas `when2call-behaviour` and `when2call-item-qa`. An edit adds a
row that supersedes the current one; one partial unique index keeps one current answer per
rater, unit, schema and question.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, func, text
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import one_current, utcnow

CURRENT_LABEL_UNIT = (
    "rater_id",
    "item_id",
    func.coalesce(text("target_model_id"), 0),
    func.coalesce(text("response_id"), 0),
    "schema_name",
    "question",
)
"""What one current label is unique over: a rater's answer to one question on one unit
(NULL model and response made equal to every other)."""


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
        Index("ix_label_item_rater_current", "item_id", "rater_id", "is_current"),
        Index("ix_label_rater_current", "rater_id", "is_current"),
        Index("ix_label_response", "response_id"),
        one_current("uq_label_current", *CURRENT_LABEL_UNIT),
    )
    id: int | None = Field(default=None, primary_key=True)
    rater_id: int = Field(foreign_key="rater.id")
    item_id: int = Field(foreign_key="item.id")
    target_model_id: int | None = Field(default=None, foreign_key="target_model.id")
    """The model whose reading of the item this is, where the unit is an item and a model
    without a response (a log-probability MCQ reading); NULL otherwise."""
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
    status: str | None = None
    """A When2Call reading's status (`domain.labels.VerdictStatus`); NULL for other schemas."""
    scores_json: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    """A machine reading's scores (a log-prob scorer's per-option log-likelihoods, a judge's
    extras) as JSON; NULL where there are none."""
    run_id: int | None = Field(default=None, foreign_key="run.id")
    """The run whose reading this is (NULL for people and imports)."""
    supersedes_id: int | None = Field(default=None, foreign_key="label.id")
    is_current: bool = True
    created_at: datetime = Field(default_factory=utcnow)
