"""Assignment plans and queues: candidate units, what is assigned to whom, progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, delete, exists, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, rater_row
from w2c_tui.db.convert import dumps, loads
from w2c_tui.db.tables import (
    AssignmentPlanRow,
    AssignmentRow,
    ItemRow,
    LabelRow,
    RaterRow,
    TargetModelRow,
    utcnow,
)
from w2c_tui.db.units import Candidate, dataset_units, unit_key
from w2c_tui.db.when2call_labels import when2call
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.blind import BlindPolicy, PlanBlind
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.team import AssignedUnit, AssignUnits, QueueProgress


@dataclass(frozen=True, slots=True)
class StoredPlan:
    """A dataset's plan for one kind of unit, and who has which unit already."""

    id: int
    overlap: int
    seed: int
    config: dict[str, object]
    assigned: dict[str, set[str]]
    """unit key → annotators."""


@dataclass(frozen=True, slots=True)
class NewAssignment:
    """One (annotator, unit) pair to add, with the unit's place in the annotator's queue."""

    annotator: str
    unit: Candidate
    order_key: int


def _labelled_by_assignee() -> Any:
    """Condition on LabelRow and AssignmentRow: the assignee's current When2Call label (not a
    withdrawal) on the assigned unit."""
    return and_(
        when2call(),
        col(LabelRow.rater_id) == col(AssignmentRow.rater_id),
        col(LabelRow.item_id) == col(AssignmentRow.item_id),
        col(LabelRow.is_current).is_(True),
        col(LabelRow.status) == VerdictStatus.OK.value,
        func.coalesce(col(LabelRow.response_id), 0)
        == func.coalesce(col(AssignmentRow.response_id), 0),
    )


class AssignmentStore:
    """Reads and writes assignment plans."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def candidates(self, dataset: str, units: AssignUnits) -> list[Candidate]:
        """Every unit of the dataset that a plan can hand out (see db.units)."""
        return dataset_units(self.engine, dataset, units)

    def plan(self, dataset: str, units: AssignUnits) -> StoredPlan | None:
        """The dataset's plan for this kind of unit, if there is one."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            row = session.exec(
                select(AssignmentPlanRow).where(
                    col(AssignmentPlanRow.dataset_id) == ds.id,
                    col(AssignmentPlanRow.unit_kind) == units.value,
                )
            ).first()
            if row is None:
                return None
            assert row.id is not None
            assigned: dict[str, set[str]] = {}
            for name, uuid, model in session.execute(
                sa_select(col(RaterRow.name), col(ItemRow.uuid), col(TargetModelRow.name))
                .select_from(AssignmentRow)
                .join(RaterRow, col(RaterRow.id) == col(AssignmentRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(AssignmentRow.item_id))
                .outerjoin(
                    TargetModelRow, col(TargetModelRow.id) == col(AssignmentRow.target_model_id)
                )
                .where(col(AssignmentRow.plan_id) == row.id)
            ).all():
                assigned.setdefault(unit_key(uuid, model), set()).add(name)
            return StoredPlan(row.id, row.overlap, row.seed, loads(row.config_json), assigned)

    def save(
        self,
        dataset: str,
        units: AssignUnits,
        *,
        overlap: int,
        seed: int,
        config: dict[str, object],
        new: list[NewAssignment],
    ) -> None:
        """Create or extend the plan with `new` pairs, all in one transaction."""

        def write() -> None:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                ds = dataset_row(session, dataset)
                row = _plan_row(session, ds.id, units)
                if row is None:
                    assert ds.id is not None
                    row = AssignmentPlanRow(
                        dataset_id=ds.id, unit_kind=units.value, overlap=overlap, seed=seed
                    )
                row.config_json = dumps(config)
                row.updated_at = utcnow()
                session.add(row)
                session.flush()
                raters: dict[str, int] = {}
                for pair in new:
                    if pair.annotator not in raters:
                        rater = rater_row(session, RaterSpec(RaterKind.HUMAN, pair.annotator))
                        assert rater.id is not None
                        raters[pair.annotator] = rater.id
                if not new:
                    return
                session.execute(
                    AssignmentRow.__table__.insert(),  # type: ignore[attr-defined]
                    [
                        {
                            "plan_id": row.id,
                            "rater_id": raters[p.annotator],
                            "item_id": p.unit.item_id,
                            "target_model_id": p.unit.model_id,
                            "response_id": p.unit.response_id,
                            "order_key": p.order_key,
                            "created_at": utcnow(),
                        }
                        for p in new
                    ],
                )

        retry_write(write, deadline_s=30.0)

    def show(self, dataset: str, annotator: str | None = None) -> list[AssignedUnit]:
        """Assigned units in queue order, annotator by annotator, with whether each is done."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            mine = _labelled_by_assignee()
            query = (
                sa_select(
                    col(RaterRow.name),
                    col(ItemRow.id),
                    col(ItemRow.uuid),
                    col(TargetModelRow.name),
                    col(AssignmentRow.response_id),
                    col(LabelRow.value),
                )
                .select_from(AssignmentRow)
                .join(AssignmentPlanRow, col(AssignmentPlanRow.id) == col(AssignmentRow.plan_id))
                .join(RaterRow, col(RaterRow.id) == col(AssignmentRow.rater_id))
                .join(ItemRow, col(ItemRow.id) == col(AssignmentRow.item_id))
                .outerjoin(
                    TargetModelRow, col(TargetModelRow.id) == col(AssignmentRow.target_model_id)
                )
                .outerjoin(LabelRow, mine)
                .where(col(AssignmentPlanRow.dataset_id) == ds.id)
                .order_by(
                    col(RaterRow.name),
                    col(AssignmentRow.order_key),
                    col(ItemRow.position),
                    col(TargetModelRow.name),
                )
            )
            if annotator is not None:
                query = query.where(col(RaterRow.name) == annotator)
            out: list[AssignedUnit] = []
            places: dict[str, int] = {}
            for name, item_id, uuid, model, response_id, label in session.execute(query).all():
                places[name] = places.get(name, 0) + 1
                out.append(
                    AssignedUnit(
                        annotator=name,
                        item_id=item_id,
                        item_uuid=uuid,
                        target_model=model,
                        response_id=response_id,
                        order=places[name],
                        done=label is not None,
                        label=Label(label) if label else None,
                    )
                )
            return out

    def clear(self, dataset: str, annotator: str | None = None) -> int:
        """Remove assignments (labels stay); the plan goes when nothing is left in it."""

        def write() -> int:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                ds = dataset_row(session, dataset)
                plans = select(AssignmentPlanRow.id).where(
                    col(AssignmentPlanRow.dataset_id) == ds.id
                )
                condition: list[Any] = [col(AssignmentRow.plan_id).in_(plans)]
                if annotator is not None:
                    condition.append(
                        exists().where(
                            col(RaterRow.id) == col(AssignmentRow.rater_id),
                            col(RaterRow.name) == annotator,
                            col(RaterRow.kind) == RaterKind.HUMAN.value,
                        )
                    )
                removed = session.execute(delete(AssignmentRow).where(*condition))
                session.execute(
                    delete(AssignmentPlanRow).where(
                        col(AssignmentPlanRow.dataset_id) == ds.id,
                        ~exists().where(col(AssignmentRow.plan_id) == col(AssignmentPlanRow.id)),
                    )
                )
                return int(removed.rowcount)  # type: ignore[attr-defined]

        return retry_write(write, deadline_s=30.0)

    def blind(
        self, dataset: str, units: AssignUnits, annotator: str | None = None
    ) -> PlanBlind | None:
        """The plan's blind policy and overlap (None: no plan of this kind, or — with
        `annotator` — none that assigns them anything)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            query = sa_select(col(AssignmentPlanRow.blind), col(AssignmentPlanRow.overlap)).where(
                col(AssignmentPlanRow.dataset_id) == ds.id,
                col(AssignmentPlanRow.unit_kind) == units.value,
            )
            if annotator is not None:
                query = query.where(
                    exists().where(
                        col(AssignmentRow.plan_id) == col(AssignmentPlanRow.id),
                        col(RaterRow.id) == col(AssignmentRow.rater_id),
                        col(RaterRow.name) == annotator,
                        col(RaterRow.kind) == RaterKind.HUMAN.value,
                    )
                )
            found = session.execute(query).first()
            if found is None:
                return None
            policy = found[0] if found[0] in set(BlindPolicy) else BlindPolicy.DEFAULT.value
            return PlanBlind(BlindPolicy(policy), int(found[1]))

    def set_blind(self, dataset: str, units: AssignUnits, policy: BlindPolicy) -> bool:
        """Set the plan's blind policy; False when the dataset has no such plan."""

        def write() -> bool:
            with write_session(self.engine, busy_ms=2000) as session, session.begin():
                ds = dataset_row(session, dataset)
                row = _plan_row(session, ds.id, units)
                if row is None:
                    return False
                if row.blind != policy.value:
                    row.blind = policy.value
                    row.updated_at = utcnow()
                    session.add(row)
                return True

        return retry_write(write, deadline_s=30.0)

    def progress(self, dataset: str, annotator: str, units: AssignUnits) -> QueueProgress | None:
        """Assigned / done for an annotator (None: nothing of this kind assigned to them)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            done_label = exists().where(_labelled_by_assignee())
            total, done = session.execute(
                sa_select(func.count(), func.count().filter(done_label))
                .select_from(AssignmentRow)
                .join(AssignmentPlanRow, col(AssignmentPlanRow.id) == col(AssignmentRow.plan_id))
                .join(RaterRow, col(RaterRow.id) == col(AssignmentRow.rater_id))
                .where(
                    col(AssignmentPlanRow.dataset_id) == ds.id,
                    col(AssignmentPlanRow.unit_kind) == units.value,
                    col(RaterRow.name) == annotator,
                    col(RaterRow.kind) == RaterKind.HUMAN.value,
                )
            ).one()
            return QueueProgress(done=int(done), total=int(total)) if total else None


def _plan_row(
    session: Session, dataset_id: int | None, units: AssignUnits
) -> AssignmentPlanRow | None:
    """The dataset's assignment plan for `units`, if it has one."""
    return session.exec(
        select(AssignmentPlanRow).where(
            col(AssignmentPlanRow.dataset_id) == dataset_id,
            col(AssignmentPlanRow.unit_kind) == units.value,
        )
    ).first()
