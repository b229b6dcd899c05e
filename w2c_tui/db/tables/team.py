"""Tables of the team workflow: assignment plans and units, guidelines, where each annotator
left off, roles and browser invitations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column, Index, Text, UniqueConstraint, func, text
from sqlmodel import Field, SQLModel

from w2c_tui.db.tables.base import utcnow


class AssignmentPlanRow(SQLModel, table=True):
    """Who labels what on one dataset: the overlap, the seed and what was selected."""

    __tablename__ = "assignment_plan"
    __table_args__ = (UniqueConstraint("dataset_id", "unit_kind", name="uq_assignment_plan"),)
    id: int | None = Field(default=None, primary_key=True)
    dataset_id: int = Field(foreign_key="dataset.id")
    unit_kind: str
    overlap: int
    seed: int
    config_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    blind: str = Field(
        default="default", sa_column=Column(Text, nullable=False, server_default="default")
    )
    """'required' (annotators cannot switch blind mode off), 'default' (opens blind) or 'off'."""
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class AssignmentRow(SQLModel, table=True):
    """One unit (an item, or a model's response to it) in one annotator's queue."""

    __tablename__ = "assignment"
    __table_args__ = (
        Index(
            "uq_assignment_unit",
            "rater_id",
            "item_id",
            func.coalesce(text("response_id"), 0),
            unique=True,
        ),
        Index("ix_assignment_plan_rater", "plan_id", "rater_id", "order_key"),
        Index("ix_assignment_item", "item_id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    plan_id: int = Field(foreign_key="assignment_plan.id")
    rater_id: int = Field(foreign_key="rater.id")
    item_id: int = Field(foreign_key="item.id")
    target_model_id: int | None = Field(default=None, foreign_key="target_model.id")
    response_id: int | None = Field(default=None, foreign_key="response.id")
    order_key: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    """The unit's place in this annotator's queue: seeded per annotator, unrelated to gold."""
    created_at: datetime = Field(default_factory=utcnow)


class GuidelineRow(SQLModel, table=True):
    """One version of a dataset's labelling guidelines (Markdown)."""

    __tablename__ = "guideline"
    __table_args__ = (UniqueConstraint("dataset_id", "version", name="uq_guideline_version"),)
    id: int | None = Field(default=None, primary_key=True)
    dataset_id: int = Field(foreign_key="dataset.id")
    version: int
    text: str = Field(sa_column=Column(Text, nullable=False))
    sha256: str
    source_path: str | None = None
    created_at: datetime = Field(default_factory=utcnow)


class GuidelineSeenRow(SQLModel, table=True):
    """An annotator has been shown a guideline version (it opens once per version)."""

    __tablename__ = "guideline_seen"
    __table_args__ = (UniqueConstraint("rater_id", "guideline_id", name="uq_guideline_seen"),)
    id: int | None = Field(default=None, primary_key=True)
    rater_id: int = Field(foreign_key="rater.id")
    guideline_id: int = Field(foreign_key="guideline.id")
    seen_at: datetime = Field(default_factory=utcnow)


class ReviewPlaceRow(SQLModel, table=True):
    """Where an annotator left off in a dataset: the review screen reopens there."""

    __tablename__ = "review_place"
    __table_args__ = (UniqueConstraint("rater_id", "dataset_id", name="uq_review_place"),)
    id: int | None = Field(default=None, primary_key=True)
    rater_id: int = Field(foreign_key="rater.id")
    dataset_id: int = Field(foreign_key="dataset.id")
    mode: str
    item_id: int | None = Field(default=None, foreign_key="item.id")
    queue: bool = False
    updated_at: datetime = Field(default_factory=utcnow)


class TeamMemberRow(SQLModel, table=True):
    """A person's role in this database: `lead` (assigns, edits guidelines, adjudicates, labels
    for others) or `annotator` (labels as themself). A database without any lead is a solo
    database: its one user may do everything (docs/team.md)."""

    __tablename__ = "team_member"
    __table_args__ = (UniqueConstraint("rater_id", name="uq_team_member_rater"),)
    id: int | None = Field(default=None, primary_key=True)
    rater_id: int = Field(foreign_key="rater.id")
    role: str
    added_by: str | None = None
    added_at: datetime = Field(default_factory=utcnow)


class InviteRow(SQLModel, table=True):
    """A browser invitation for `w2c serve`: the SHA-256 of its secret token (the token itself is
    shown once and never stored), who it lets in, when it expires or was revoked."""

    __tablename__ = "invite"
    __table_args__ = (
        UniqueConstraint("token_hash", name="uq_invite_token_hash"),
        Index("ix_invite_rater", "rater_id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    rater_id: int = Field(foreign_key="rater.id")
    token_hash: str
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    revoked_at: datetime | None = None
    last_used_at: datetime | None = None
