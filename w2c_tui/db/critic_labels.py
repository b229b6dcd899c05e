"""CriticTool labels: raters' answers on units (an item, and the model whose reply was judged).

The unit is a sample's item and, when a model's prediction is judged, the response row that
holds it (issue11-store's `critic_prediction.response_id`). One current row per rater and unit,
enforced by the partial unique index
`uq_critic_label_current`; an edit retires the current row with a conditional UPDATE and adds a
row that points to it (as `label_write` does for verdicts), so history is never lost and undo
is one more row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, equal
from w2c_tui.db.convert import to_rater
from w2c_tui.db.tables import CriticLabelRow, ItemRow, RaterRow, ResponseRow, TargetModelRow, utcnow
from w2c_tui.db.writes import retire, retry_write, write_session
from w2c_tui.domain.critictool_labels import CriticLabel
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.models import Rater
from w2c_tui.domain.runs import TaskResult
from w2c_tui.domain.team import Seen


@dataclass(frozen=True)
class CriticRating:
    """One rater's current answers on one unit."""

    item_id: int
    sample_id: str
    response_id: int | None
    target_model: str | None
    rater: Rater
    label: CriticLabel


class CriticLabelStore:
    """Writes and reads CriticTool labels."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _current(
        self, session: Session, rater_id: int, item_id: int, response_id: int | None
    ) -> CriticLabelRow | None:
        return session.exec(
            select(CriticLabelRow).where(
                col(CriticLabelRow.rater_id) == rater_id,
                col(CriticLabelRow.item_id) == item_id,
                col(CriticLabelRow.is_current).is_(True),
                equal(CriticLabelRow.response_id, response_id),
            )
        ).first()

    def current(self, rater_id: int, item_id: int, response_id: int | None) -> CriticLabel | None:
        """The rater's current answers on the unit (None: never labelled, or withdrawn)."""
        with Session(self.engine) as session:
            row = self._current(session, rater_id, item_id, response_id)
            if row is None or row.answers_json == "{}":
                return None
            return CriticLabel.from_json(row.answers_json)

    def set_label(
        self,
        rater_id: int,
        item_id: int,
        response_id: int | None,
        label: CriticLabel,
        *,
        seen: Seen | None = None,
        source: str = "tui",
    ) -> bool:
        """Record `label` (an empty one withdraws); False when it is what the unit has."""

        def write() -> bool:
            with write_session(self.engine) as session, session.begin():
                if session.get(ItemRow, item_id) is None:
                    raise InputError("critic_label", f"no item with id {item_id}")
                current = self._current(session, rater_id, item_id, response_id)
                answers = label.to_json()
                if (current.answers_json if current else "{}") == answers:
                    return False
                if current is not None:
                    retire(session, CriticLabelRow, current.id)
                session.add(
                    CriticLabelRow(
                        rater_id=rater_id,
                        item_id=item_id,
                        response_id=response_id,
                        answers_json=answers,
                        source=source,
                        seen=seen.value if seen else None,
                        supersedes_id=current.id if current else None,
                    )
                )
                session.flush()
                return True

        return retry_write(write, deadline_s=10.0)

    def history(self, rater_id: int, item_id: int, response_id: int | None) -> list[CriticLabel]:
        """Every answer set the rater recorded on the unit, oldest first."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(CriticLabelRow.answers_json)
                .where(
                    col(CriticLabelRow.rater_id) == rater_id,
                    col(CriticLabelRow.item_id) == item_id,
                    equal(CriticLabelRow.response_id, response_id),
                )
                .order_by(col(CriticLabelRow.id))
            ).all()
            return [CriticLabel.from_json(text) for text in rows]

    def undo(self, rater_id: int, item_id: int, response_id: int | None) -> CriticLabel | None:
        """Put back the answers the current row superseded (a new row); returns them."""
        with Session(self.engine) as session:
            row = self._current(session, rater_id, item_id, response_id)
            if row is None or row.supersedes_id is None:
                return None
            before = session.get(CriticLabelRow, row.supersedes_id)
            assert before is not None
            previous = CriticLabel.from_json(before.answers_json)
        self.set_label(rater_id, item_id, response_id, previous, source="undo")
        return previous

    def ratings(self, dataset: str) -> list[CriticRating]:
        """Every rater's current answers on the dataset's units, in item order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            raters = {r.id: to_rater(r) for r in session.exec(select(RaterRow)).all()}
            rows = session.execute(
                sa_select(
                    col(CriticLabelRow.item_id),
                    col(ItemRow.uuid),
                    col(CriticLabelRow.response_id),
                    col(TargetModelRow.name),
                    col(CriticLabelRow.rater_id),
                    col(CriticLabelRow.answers_json),
                )
                .join(ItemRow, col(ItemRow.id) == col(CriticLabelRow.item_id))
                .outerjoin(ResponseRow, col(ResponseRow.id) == col(CriticLabelRow.response_id))
                .outerjoin(
                    TargetModelRow, col(TargetModelRow.id) == col(ResponseRow.target_model_id)
                )
                .where(col(ItemRow.dataset_id) == ds.id, col(CriticLabelRow.is_current).is_(True))
                .order_by(col(ItemRow.position), col(CriticLabelRow.id))
            ).all()
            return [
                CriticRating(
                    item_id,
                    uuid,
                    response_id,
                    model,
                    raters[rater_id],
                    CriticLabel.from_json(answers),
                )
                for item_id, uuid, response_id, model, rater_id, answers in rows
                if answers != "{}"
            ]


def critic_judge_records(
    session: Session, run_id: int, results: Sequence[TaskResult], rater_id: int
) -> None:
    """A CriticTool judge run's answers as `critic_label` rows of its rater (in the run's write
    transaction): each unit's current row of this rater is retired and the new one points to
    it, as an annotator's edit does; `source` names the run."""
    units = {(r.task.item_id, r.task.response_id) for r in results}
    current: dict[tuple[int, int | None], int] = {}
    items = sorted({item for item, _ in units})
    for row_id, item_id, response_id in session.exec(
        select(CriticLabelRow.id, CriticLabelRow.item_id, CriticLabelRow.response_id).where(
            col(CriticLabelRow.rater_id) == rater_id,
            col(CriticLabelRow.is_current).is_(True),
            col(CriticLabelRow.item_id).in_(items),
        )
    ).all():
        if (item_id, response_id) in units and row_id is not None:
            current[(item_id, response_id)] = row_id
    if current:
        session.execute(
            update(CriticLabelRow)
            .where(col(CriticLabelRow.id).in_(sorted(current.values())))
            .values(is_current=False)
        )
    session.execute(
        insert(CriticLabelRow),
        [
            {
                "rater_id": rater_id,
                "item_id": r.task.item_id,
                "response_id": r.task.response_id,
                "answers_json": r.meta["critic_label"],
                "source": f"run {run_id}",
                "seen": None,
                "raw": r.raw,
                "supersedes_id": current.get((r.task.item_id, r.task.response_id)),
                "is_current": True,
                "created_at": utcnow(),
            }
            for r in results
        ],
    )
