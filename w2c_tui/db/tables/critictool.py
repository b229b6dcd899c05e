"""Tables of CriticTool data (issue #11): each sample is an `item` row (so labels, verdicts,
assignments and agreement key on its item id) with a `critic_sample` side row; each model's
predictions are a `response` row with a `critic_prediction` side row (see docs/decisions.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import utcnow


class CriticToolSampleRow(SQLModel, table=True):
    """What a CriticTool sample is beyond its item row: trajectory, gold and file kind."""

    __tablename__ = "critic_sample"
    __table_args__ = (
        Index("ix_critic_sample_sha", "dataset_id", "item_sha256"),
        Index("uq_critic_sample_id", "dataset_id", "sample_id", unique=True),
    )
    id: int | None = Field(default=None, primary_key=True)
    item_id: int = Field(foreign_key="item.id", unique=True)
    dataset_id: int = Field(foreign_key="dataset.id")
    sample_id: str
    """The file's id of the sample: its identity within the dataset (official code)."""
    source: str
    """internal or external (the file kind)."""
    variant: str | None = None
    """base, evol, or None when the file name said neither."""
    cot: bool = False
    mode: str | None = None
    """skip or finish when the importing file's instruction (or name) said so."""
    error_type: str | None = None
    system_prompt: str = Field(sa_column=Column(Text, nullable=False))
    turns_json: str = Field(sa_column=Column(Text, nullable=False))
    """The dataset's turns (role, content), the original system prompt first."""
    tools_json: str = Field(sa_column=Column(Text, nullable=False))
    gold_json: str = Field(sa_column=Column(Text, nullable=False))
    item_sha256: str
    """The content's fingerprint: a re-import under the same id must bring the same content."""
    raw_json: str = Field(sa_column=Column(Text, nullable=False))
    """The record's JSON text exactly as in the file that brought the sample in."""
    sha256: str
    line: int
    source_path: str | None = None


class CriticToolPredictionRow(SQLModel, table=True):
    """One model's predictions for one sample in one setting (mode, CoT)."""

    __tablename__ = "critic_prediction"
    __table_args__ = (
        UniqueConstraint("item_id", "target_model_id", "mode", "cot", name="uq_critic_prediction"),
    )
    id: int | None = Field(default=None, primary_key=True)
    item_id: int = Field(foreign_key="item.id")
    response_id: int = Field(foreign_key="response.id", unique=True)
    target_model_id: int = Field(foreign_key="target_model.id")
    run_id: int | None = Field(default=None, foreign_key="run.id")
    mode: str = ""
    """skip or finish for external samples; '' for internal ones."""
    cot: bool = False
    rounds_json: str = Field(sa_column=Column(Text, nullable=False))
    """The raw replies: one for internal samples, one per round for external ones."""
    parsed_json: str = Field(sa_column=Column(Text, nullable=False))
    """Each round's reply as the evaluators parse it (error, thought, name, args, parsed_as)."""
    raw_json: str | None = Field(default=None, sa_column=Column(Text))
    """The record's text in the imported predictions file (None for runs)."""
    source_path: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
