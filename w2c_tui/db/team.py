"""Team queries: who the annotators are, when they labelled, and every human label's history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, delete, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, rater_row, target_model_names
from w2c_tui.db.tables import InviteRow, ItemRow, LabelRow, RaterRow, TeamMemberRow, utcnow
from w2c_tui.db.when2call_labels import when2call
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.roles import Invite, Role, TeamMember
from w2c_tui.domain.team import Seen


@dataclass(frozen=True, slots=True)
class LabelEvent:
    """One row of a human's label history on a unit (oldest first)."""

    annotator: str
    item_id: int
    uuid: str
    target_model: str | None
    response_id: int | None
    label: Label | None
    status: VerdictStatus
    seen: Seen | None
    created_at: datetime
    is_current: bool
    raw: str | None = None
    source: str | None = None
    """Where the label was made: "tui" for a keypress, "import …" for a file."""
    guideline_id: int | None = None
    """The guideline version in force when the label was made."""


class TeamQueries:
    """Reads what the team workflow needs that the other query modules do not."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def annotators(self) -> list[str]:
        """Every human annotator known to the database, by name."""
        with Session(self.engine) as session:
            names = session.exec(
                select(RaterRow.name)
                .where(col(RaterRow.kind) == RaterKind.HUMAN.value)
                .order_by(col(RaterRow.name))
            ).all()
            return list(dict.fromkeys(names))

    def history(self, dataset: str, kind: RaterKind = RaterKind.HUMAN) -> list[LabelEvent]:
        """Every label event of every rater of `kind` on the dataset, oldest first."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            models = target_model_names(session)
            rows = session.execute(
                sa_select(
                    col(RaterRow.name),
                    col(LabelRow.item_id),
                    col(ItemRow.uuid),
                    col(LabelRow.target_model_id),
                    col(LabelRow.response_id),
                    col(LabelRow.value),
                    col(LabelRow.status),
                    col(LabelRow.seen),
                    col(LabelRow.created_at),
                    col(LabelRow.is_current),
                    col(LabelRow.raw),
                    col(LabelRow.source),
                    col(LabelRow.guideline_id),
                )
                .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
                .where(
                    col(ItemRow.dataset_id) == ds.id,
                    col(RaterRow.kind) == kind.value,
                    when2call(),
                )
                .order_by(col(LabelRow.id))
            ).all()
            return [
                LabelEvent(
                    annotator=name,
                    item_id=item_id,
                    uuid=uuid,
                    target_model=models.get(model) if model else None,
                    response_id=response_id,
                    label=Label(label) if label else None,
                    status=VerdictStatus(status or VerdictStatus.OK.value),
                    seen=Seen(seen) if seen else None,
                    created_at=created,
                    is_current=bool(current),
                    raw=raw,
                    source=source,
                    guideline_id=guideline,
                )
                for (
                    name,
                    item_id,
                    uuid,
                    model,
                    response_id,
                    label,
                    status,
                    seen,
                    created,
                    current,
                    raw,
                    source,
                    guideline,
                ) in rows
            ]


def _aware(value: datetime) -> datetime:
    """A stored time as timezone-aware UTC (SQLite hands them back naive)."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _human_key(name: str) -> str:
    return RaterSpec(RaterKind.HUMAN, name).key()


class RoleStore:
    """Roles (`team_member`) and browser invitations (`invite`) of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def members(self) -> list[TeamMember]:
        """Everyone with a role, leads first, then by name."""
        with Session(self.engine) as session:
            rows = session.execute(
                sa_select(
                    col(RaterRow.name),
                    col(TeamMemberRow.role),
                    col(TeamMemberRow.added_by),
                    col(TeamMemberRow.added_at),
                ).join(RaterRow, col(RaterRow.id) == col(TeamMemberRow.rater_id))
            ).all()
        members = [
            TeamMember(name=name, role=Role(role), added_by=by, added_at=_aware(at))
            for name, role, by, at in rows
        ]
        return sorted(members, key=lambda m: (m.role is not Role.LEAD, m.name))

    def set_role(self, name: str, role: Role, added_by: str | None) -> Role | None:
        """Give `name` the role (created on first use); the role they had before, if any."""

        def write() -> Role | None:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                rater = rater_row(session, RaterSpec(RaterKind.HUMAN, name))
                row = session.exec(
                    select(TeamMemberRow).where(col(TeamMemberRow.rater_id) == rater.id)
                ).first()
                if row is None:
                    assert rater.id is not None
                    session.add(
                        TeamMemberRow(rater_id=rater.id, role=role.value, added_by=added_by)
                    )
                    return None
                before = Role(row.role)
                if before is not role:
                    row.role = role.value
                    row.added_by = added_by
                    row.added_at = utcnow()
                    session.add(row)
                return before

        return retry_write(write, deadline_s=30.0)

    def remove(self, name: str) -> bool:
        """Take `name`'s role away (their labels stay); whether they had one."""

        def write() -> bool:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                rater = session.exec(
                    select(RaterRow).where(col(RaterRow.key) == _human_key(name))
                ).first()
                if rater is None:
                    return False
                gone = session.execute(
                    delete(TeamMemberRow).where(col(TeamMemberRow.rater_id) == rater.id)
                )
                return bool(gone.rowcount)  # type: ignore[attr-defined]

        return retry_write(write, deadline_s=30.0)

    def add_invite(self, name: str, token_hash: str, expires_at: datetime) -> Invite:
        """Store an invitation for `name` (only the token's hash)."""

        def write() -> Invite:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                rater = rater_row(session, RaterSpec(RaterKind.HUMAN, name))
                assert rater.id is not None
                row = InviteRow(rater_id=rater.id, token_hash=token_hash, expires_at=expires_at)
                session.add(row)
                session.flush()
                return _invite(row, name)

        return retry_write(write, deadline_s=30.0)

    def revoke(self, name: str) -> int:
        """Revoke every invitation of `name` not yet revoked; how many."""

        def write() -> int:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                rater = session.exec(
                    select(RaterRow).where(col(RaterRow.key) == _human_key(name))
                ).first()
                if rater is None:
                    return 0
                done = session.execute(
                    update(InviteRow)
                    .where(col(InviteRow.rater_id) == rater.id, col(InviteRow.revoked_at).is_(None))
                    .values(revoked_at=utcnow())
                )
                return int(done.rowcount)  # type: ignore[attr-defined]

        return retry_write(write, deadline_s=30.0)

    def invites(self, name: str | None = None) -> list[Invite]:
        """Every invitation (of `name`), oldest first."""
        with Session(self.engine) as session:
            query = (
                sa_select(InviteRow, col(RaterRow.name))
                .join(RaterRow, col(RaterRow.id) == col(InviteRow.rater_id))
                .order_by(col(InviteRow.id))
            )
            if name is not None:
                query = query.where(col(RaterRow.key) == _human_key(name))
            return [_invite(row, who) for row, who in session.execute(query).all()]

    def invite_by_hash(self, token_hash: str) -> Invite | None:
        """The invitation whose token hashes to `token_hash`, whatever its state."""
        with Session(self.engine) as session:
            found = session.execute(
                sa_select(InviteRow, col(RaterRow.name))
                .join(RaterRow, col(RaterRow.id) == col(InviteRow.rater_id))
                .where(col(InviteRow.token_hash) == token_hash)
            ).first()
            return _invite(found[0], found[1]) if found else None

    def invite(self, invite_id: int) -> Invite | None:
        """One invitation by id (its state now)."""
        with Session(self.engine) as session:
            found = session.execute(
                sa_select(InviteRow, col(RaterRow.name))
                .join(RaterRow, col(RaterRow.id) == col(InviteRow.rater_id))
                .where(col(InviteRow.id) == invite_id)
            ).first()
            return _invite(found[0], found[1]) if found else None

    def mark_used(self, invite_id: int) -> None:
        """Record that the invitation let someone in now (best effort: a busy database skips)."""

        def write() -> None:
            with write_session(self.engine, busy_ms=500) as session, session.begin():
                session.execute(
                    update(InviteRow)
                    .where(col(InviteRow.id) == invite_id)
                    .values(last_used_at=utcnow())
                )

        retry_write(write, deadline_s=2.0)


def _invite(row: InviteRow, name: str) -> Invite:
    assert row.id is not None
    return Invite(
        id=row.id,
        name=name,
        created_at=_aware(row.created_at),
        expires_at=_aware(row.expires_at),
        revoked_at=_aware(row.revoked_at) if row.revoked_at else None,
        last_used_at=_aware(row.last_used_at) if row.last_used_at else None,
    )
