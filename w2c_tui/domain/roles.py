"""Roles in one database (lead, annotator) and the invitations `w2c serve` lets in by."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from w2c_tui.domain.errors import W2CError


class Role(StrEnum):
    """What a person may do in a database that has a lead."""

    LEAD = "lead"
    """Assigns, sets guidelines, adjudicates, labels as someone else, manages the team."""
    ANNOTATOR = "annotator"
    """Labels as themself."""


class LeadAction(StrEnum):
    """What only a lead may do once a database has one (the words in a refusal)."""

    ADJUDICATE = "adjudicate"
    LABEL_FOR_OTHERS = "label as someone else"
    ASSIGN = "change assignments"
    GUIDELINES = "change guidelines"
    TEAM = "change the team or its invitations"
    OTHERS_LABELS = "record other annotators' labels (labels import, merge)"
    RUNS = "start, resume or cancel evaluation runs from a browser (they use the server's keys)"


@dataclass(frozen=True, slots=True)
class TeamMember:
    """A person's role in this database."""

    name: str
    role: Role
    added_by: str | None
    added_at: datetime


@dataclass(frozen=True, slots=True)
class Invite:
    """One browser invitation (the token itself is never stored, only its SHA-256)."""

    id: int
    name: str
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None
    last_used_at: datetime | None

    def state(self, now: datetime) -> str:
        """'valid', 'revoked' or 'expired' at `now`."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= now:
            return "expired"
        return "valid"


class NotALead(W2CError):
    """The acting person may not do this: the database has a lead and they are not one."""


class InviteRefused(W2CError):
    """A token that lets nobody in (unknown, revoked or expired)."""
