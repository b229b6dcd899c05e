"""SQLModel tables of the annotation store (see docs/schema.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, Column, Index, Text, UniqueConstraint, func, text
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    """Timestamps are stored in UTC."""
    return datetime.now(UTC)


class DatasetRow(SQLModel, table=True):
    """A named collection of items."""

    __tablename__ = "dataset"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    kind: str = "when2call_test"
    source_path: str | None = None
    sha256: str | None = None
    description: str | None = None
    imported_at: datetime = Field(default_factory=utcnow)


class ItemRow(SQLModel, table=True):
    """One benchmark item; `uuid` is the dataset's own identifier."""

    __tablename__ = "item"
    __table_args__ = (
        UniqueConstraint("dataset_id", "uuid", name="uq_item_dataset_uuid"),
        Index("ix_item_dataset_position", "dataset_id", "position"),
        Index("ix_item_dataset_gold", "dataset_id", "gold"),
        Index("ix_item_dataset_tools", "dataset_id", "n_tools", "position"),
        Index("ix_item_uuid", "uuid"),
        # Covers the blind order (shuffle_key) so the list's ids are read from the index alone.
        Index("ix_item_order", "dataset_id", "shuffle_key", "position", "id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    dataset_id: int = Field(foreign_key="dataset.id")
    uuid: str
    position: int
    kind: str = "test"
    question: str = Field(sa_column=Column(Text, nullable=False))
    tools_json: str = Field(sa_column=Column(Text, nullable=False))
    answers_json: str = Field(sa_column=Column(Text, nullable=False))
    gold: str | None = None
    n_tools: int = 0
    source: str | None = None
    source_id: str | None = None
    held_out_param: str | None = None
    target_tool: str | None = Field(default=None, sa_column=Column(Text))
    orig_question: str | None = Field(default=None, sa_column=Column(Text))
    extra_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    content_hash: str
    shuffle_key: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    """A fixed pseudo-random number per item (from its uuid): blind mode orders the list by it,
    mixed with the annotator's own key, so that position says nothing about the gold label."""
    raw_line: str | None = Field(default=None, sa_column=Column(Text))
    """The item's line in the imported file, exactly (test files): what `items export --format
    when2call` writes for an untouched item. NULL for items imported before revision 0009."""


class TargetModelRow(SQLModel, table=True):
    """A model whose behaviour is evaluated."""

    __tablename__ = "target_model"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    backend: str | None = None
    config_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))


class ResponseRow(SQLModel, table=True):
    """A target model's free-form response to an item."""

    __tablename__ = "response"
    __table_args__ = (Index("ix_response_item_model", "item_id", "target_model_id"),)
    id: int | None = Field(default=None, primary_key=True)
    item_id: int = Field(foreign_key="item.id")
    target_model_id: int = Field(foreign_key="target_model.id")
    text: str | None = Field(default=None, sa_column=Column(Text))
    sample_index: int = 0
    run_id: int | None = Field(default=None, foreign_key="run.id")
    source: str | None = None
    meta_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class RaterRow(SQLModel, table=True):
    """A human, a judge (model + prompt version), a scorer, or the gold label."""

    __tablename__ = "rater"
    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, index=True)
    kind: str = Field(index=True)
    name: str
    config_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


CURRENT_VERDICT_UNIT = (
    "rater_id",
    "item_id",
    func.coalesce(text("target_model_id"), 0),
    func.coalesce(text("response_id"), 0),
)
"""What one current verdict is unique over: a rater's reading of one unit (NULLs made equal)."""


def one_current(name: str, *unit: Any) -> Index:
    """The partial unique index that lets a table hold one current row per `unit` (its older
    rows stay, `is_current` false): on SQLite and PostgreSQL alike."""
    current = text("is_current")
    return Index(name, *unit, unique=True, sqlite_where=current, postgresql_where=current)


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


class RunRow(SQLModel, table=True):
    """An evaluation run: its configuration, fingerprint, status and progress."""

    __tablename__ = "run"
    id: int | None = Field(default=None, primary_key=True)
    kind: str
    target_model_id: int | None = Field(default=None, foreign_key="target_model.id")
    rater_id: int | None = Field(default=None, foreign_key="rater.id")
    dataset_id: int | None = Field(default=None, foreign_key="dataset.id")
    config_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    fingerprint: str | None = None
    status: str = "pending"
    n_total: int = 0
    n_done: int = 0
    n_error: int = 0
    error: str | None = Field(default=None, sa_column=Column(Text))
    pid: int | None = None
    worker_started: float | None = None
    """The worker process's start time (seconds since the epoch, as psutil reports it): a pid
    alone may have been reused by another process."""
    host: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    heartbeat_at: datetime | None = None
    log_path: str | None = None


class RunResultRow(SQLModel, table=True):
    """One task of a run done (or failed): the checkpoint that makes resuming exact."""

    __tablename__ = "run_result"
    __table_args__ = (UniqueConstraint("run_id", "item_id", "sample_index", name="uq_run_result"),)
    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="run.id")
    item_id: int = Field(foreign_key="item.id")
    sample_index: int = 0
    status: str = "ok"
    error: str | None = Field(default=None, sa_column=Column(Text))
    response_id: int | None = Field(default=None, foreign_key="response.id")
    verdict_id: int | None = Field(default=None, foreign_key="verdict.id")
    retries: int = 0
    created_at: datetime = Field(default_factory=utcnow)


class ImportLogRow(SQLModel, table=True):
    """One import of one file: what it was and what it changed."""

    __tablename__ = "import_log"
    id: int | None = Field(default=None, primary_key=True)
    path: str
    kind: str
    sha256: str
    dataset_id: int | None = Field(default=None, foreign_key="dataset.id")
    report_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


# the team tables (tables_team.py) and the CriticTool tables (tables_critic.py): importing them
# here registers them with the metadata
from w2c_tui.db import tables_critic as _critic  # noqa: E402, F401
from w2c_tui.db import tables_team as _team  # noqa: E402, F401
