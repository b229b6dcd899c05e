"""Every current When2Call label of a dataset in one pass, for agreement and metrics."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, target_model_names
from w2c_tui.db.convert import loads, to_rater
from w2c_tui.db.tables import ItemRow, LabelRow, RaterRow, RunResultRow
from w2c_tui.db.when2call_labels import when2call
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.models import ItemFacts, Rater, Rating


class RatingQueries:
    """Reads ratings in bulk (no ORM objects per row: plain column tuples)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def items(self, dataset: str) -> list[ItemFacts]:
        """Every item's id, uuid, position, gold and number of tools, in file order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.execute(
                sa_select(
                    col(ItemRow.id),
                    col(ItemRow.uuid),
                    col(ItemRow.position),
                    col(ItemRow.gold),
                    col(ItemRow.n_tools),
                    col(ItemRow.source),
                )
                .where(col(ItemRow.dataset_id) == ds.id)
                .order_by(col(ItemRow.position))
            ).all()
            return [
                ItemFacts(
                    item_id=i,
                    uuid=u,
                    position=p,
                    gold=Label(g) if g else None,
                    n_tools=n,
                    source=s,
                )
                for i, u, p, g, n, s in rows
            ]

    def ratings(self, dataset: str) -> list[Rating]:
        """Every current verdict on the dataset's items (all raters, all kinds)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            models = target_model_names(session)
            raters: dict[int, Rater] = {
                r.id: to_rater(r) for r in session.exec(select(RaterRow)).all() if r.id is not None
            }
            rows = session.execute(
                sa_select(
                    col(LabelRow.item_id),
                    col(ItemRow.uuid),
                    col(LabelRow.target_model_id),
                    col(LabelRow.response_id),
                    col(LabelRow.rater_id),
                    col(LabelRow.value),
                    col(LabelRow.status),
                    col(LabelRow.scores_json),
                    col(LabelRow.created_at),
                    col(LabelRow.run_id),
                )
                .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
                .where(
                    col(ItemRow.dataset_id) == ds.id,
                    col(LabelRow.is_current).is_(True),
                    when2call(),
                )
                .order_by(col(ItemRow.position), col(LabelRow.id))
            ).all()
            repeats = self._repeats(session, ds.id)
            return [
                Rating(
                    item_id=item_id,
                    item_uuid=uuid,
                    target_model=models.get(model_id) if model_id else None,
                    response_id=response_id,
                    rater=raters[rater_id],
                    label=Label(label) if label else None,
                    status=VerdictStatus(status or VerdictStatus.OK.value),
                    scores=loads(scores),
                    created_at=created,
                    repeats=tuple(repeats.get((run_id, rater_id, item_id, response_id), ()))
                    if run_id is not None
                    else (),
                )
                for (
                    item_id,
                    uuid,
                    model_id,
                    response_id,
                    rater_id,
                    label,
                    status,
                    scores,
                    created,
                    run_id,
                ) in rows
            ]

    @staticmethod
    def _repeats(
        session: Session, dataset_id: int | None
    ) -> dict[tuple[int, int, int, int | None], list[tuple[Label | None, VerdictStatus]]]:
        """Verdicts of samples ≥ 1 of runs with --repeats, by (run, rater, item, response), in
        sample order (a run stores them next to its sample-0 verdict, not as current)."""
        rows = session.execute(
            sa_select(
                col(RunResultRow.run_id),
                col(LabelRow.rater_id),
                col(LabelRow.item_id),
                col(LabelRow.response_id),
                col(LabelRow.value),
                col(LabelRow.status),
            )
            .join(LabelRow, col(LabelRow.id) == col(RunResultRow.label_id))
            .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
            .where(col(ItemRow.dataset_id) == dataset_id, col(RunResultRow.sample_index) > 0)
            .order_by(col(RunResultRow.run_id), col(RunResultRow.sample_index))
        ).all()
        found: dict[tuple[int, int, int, int | None], list[tuple[Label | None, VerdictStatus]]] = {}
        for run_id, rater_id, item_id, response_id, label, status in rows:
            found.setdefault((run_id, rater_id, item_id, response_id), []).append(
                (Label(label) if label else None, VerdictStatus(status))
            )
        return found
