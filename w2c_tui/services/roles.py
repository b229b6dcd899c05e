"""Who may do what in a database: leads and annotators, and the invitations of `w2c serve`.

The policy (docs/team.md, "Roles"):

- A database without a lead is a *solo* database: whoever uses it may do everything.
- Once it has a lead, adjudicating, labelling as someone else, changing assignments or
  guidelines, and changing the team or its invitations need the acting person to be a lead.
- A session of `w2c serve` (`invited`) is never solo: its person is who their invitation
  names, and only a lead may do a lead's work there, whether or not the database has one.

The acting person is passed in by the front end (the terminal's `--annotator`, W2C_ANNOTATOR or
config file; a served session's invitation): this module never guesses it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.db.team import RoleStore
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.names import clean_name, printable
from w2c_tui.domain.roles import Invite, InviteRefused, LeadAction, NotALead, Role, TeamMember

DEFAULT_EXPIRY = timedelta(days=7)
MAX_EXPIRY = timedelta(days=366)
DURATION = re.compile(r"^\s*(\d{1,6})\s*([mhdw])\s*$")
UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_duration(text: str) -> timedelta:
    """'30m', '12h', '7d' or '2w' as a timedelta; ValueError saying what is accepted."""
    found = DURATION.match(text.lower())
    if not found:
        raise ValueError(f"--expires {text!r}: give a number and m, h, d or w (e.g. 7d, 12h)")
    value = timedelta(**{UNITS[found.group(2)]: int(found.group(1))})
    if value <= timedelta(0) or value > MAX_EXPIRY:
        raise ValueError(f"--expires {text!r}: between 1 minute and {MAX_EXPIRY.days} days")
    return value


def token_hash(token: str) -> str:
    """The SHA-256 (hex) under which an invitation's token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class RoleService:
    """Roles, the lead gate and the invitations of one database."""

    def __init__(self, store: Store) -> None:
        self._roles = RoleStore(store.engine)

    # -- who is who ---------------------------------------------------------------------
    def members(self) -> list[TeamMember]:
        """Everyone with a role, leads first."""
        return self._roles.members()

    def leads(self) -> list[str]:
        """The leads' names (empty: a solo database)."""
        return [m.name for m in self._roles.members() if m.role is Role.LEAD]

    def role_of(self, name: str | None) -> Role | None:
        """`name`'s role, None when they have none."""
        if not name:
            return None
        return next((m.role for m in self._roles.members() if m.name == name), None)

    # -- the gate -----------------------------------------------------------------------
    def refusal(
        self, actor: str | None, action: LeadAction, *, invited: bool = False
    ) -> str | None:
        """Why `actor` may not do `action` here (None: they may)."""
        leads = self.leads()
        if not leads and not invited:
            return None  # a solo database
        if actor and actor in leads:
            return None
        who = (
            f"{printable(actor)} is not a lead"
            if actor
            else "no name is given (--annotator, W2C_ANNOTATOR or the config file)"
        )
        if leads:
            shown = ", ".join(printable(name) for name in leads)
            how = (
                f"the leads of this database are {shown}; a lead makes you one with "
                "`w2c --annotator LEAD team add NAME --role lead`"
            )
        else:
            how = (
                "this database has no lead yet: `w2c team add NAME --role lead` in a "
                "terminal makes one"
            )
        return f"only a lead may {action.value} here: {who}; {how}"

    def require(self, actor: str | None, action: LeadAction, *, invited: bool = False) -> None:
        """NotALead (a W2CError: exit 2 in the CLI) unless `actor` may do `action`."""
        why = self.refusal(actor, action, invited=invited)
        if why is not None:
            raise NotALead(why)

    def require_own_labels(self, actor: str | None, path: Path) -> None:
        """NotALead unless the label file at `path` holds only `actor`'s labels or `actor`
        may record other annotators' (a lead, or a solo database). A file that does not read
        is left to the importer, which names its line and field."""
        if self.refusal(actor, LeadAction.OTHERS_LABELS) is None:
            return
        from w2c_tui.domain.errors import InputError
        from w2c_tui.io.label_file import read_label_file

        try:
            names = {row.annotator for row in read_label_file(path)}
        except (InputError, OSError):
            return
        if names - {actor}:
            self.require(actor, LeadAction.OTHERS_LABELS)

    def require_only(self, actor: str | None, annotators: set[str]) -> None:
        """NotALead unless every one of `annotators` is `actor` or `actor` may record other
        annotators' labels (a lead, or a solo database)."""
        if annotators - {actor} and self.refusal(actor, LeadAction.OTHERS_LABELS) is not None:
            self.require(actor, LeadAction.OTHERS_LABELS)

    # -- the team -----------------------------------------------------------------------
    def add(self, actor: str | None, name: str, role: Role) -> Role | None:
        """Give `name` a role (a lead's work once a lead exists); the role they had before."""
        self.require(actor, LeadAction.TEAM)
        name = _name(name)
        return self._roles.set_role(name, role, actor)

    def remove(self, actor: str | None, name: str) -> bool:
        """Take `name`'s role away (their labels stay); whether they had one. Removing the
        last lead makes the database solo again."""
        self.require(actor, LeadAction.TEAM)
        return self._roles.remove(_name(name))

    # -- invitations --------------------------------------------------------------------
    def invite(
        self, actor: str | None, name: str, expires: timedelta = DEFAULT_EXPIRY
    ) -> tuple[Invite, str]:
        """A new invitation for `name` and its secret token (shown once, stored hashed).
        `name` gets the annotator role if they have none."""
        self.require(actor, LeadAction.TEAM)
        name = _name(name)
        if self.role_of(name) is None:
            self._roles.set_role(name, Role.ANNOTATOR, actor)
        token = secrets.token_urlsafe(32)
        invite = self._roles.add_invite(name, token_hash(token), _now() + expires)
        return invite, token

    def revoke(self, actor: str | None, name: str) -> int:
        """Revoke every open invitation of `name`; how many."""
        self.require(actor, LeadAction.TEAM)
        return self._roles.revoke(_name(name))

    def invites(self, name: str | None = None) -> list[Invite]:
        """Every invitation (of `name`), oldest first."""
        return self._roles.invites(name)

    def admit(self, token: str) -> Invite:
        """The invitation that `token` opens, now; InviteRefused says why not."""
        if not token or len(token) > 200:
            raise InviteRefused("no valid invitation token")
        invite = self._roles.invite_by_hash(token_hash(token))
        if invite is None:
            raise InviteRefused("this invitation is not known here")
        state = invite.state(_now())
        if state != "valid":
            raise InviteRefused(f"this invitation is {state}; ask a lead for a new one")
        self._roles.mark_used(invite.id)
        return invite

    def still_valid(self, invite_id: int) -> bool:
        """Whether the invitation still lets its person in (not revoked, not expired)."""
        invite = self._roles.invite(invite_id)
        return invite is not None and invite.state(_now()) == "valid"


def _now() -> datetime:
    return datetime.now(UTC)


def _name(name: str) -> str:
    try:
        return clean_name(name, "name")
    except ValueError as error:
        raise W2CError(str(error)) from error
