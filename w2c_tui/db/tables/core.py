"""The tables of what is labelled: datasets, their items, target models and their responses,
raters, runs, and the log of imports."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import utcnow


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
    label_id: int | None = Field(default=None, foreign_key="label.id")
    """The reading the task wrote (a When2Call `label` row), where it wrote one."""
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
