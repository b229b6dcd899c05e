"""Item queries for the review screen: filtered windows, counts, details."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine, and_, exists, func, not_, or_
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from w2c_tui.db.common import chunked, dataset_row, target_model_names
from w2c_tui.db.convert import to_item, to_rater, to_verdict
from w2c_tui.db.tables import (
    DatasetRow,
    ItemRow,
    NoteRow,
    QAFlagRow,
    RaterRow,
    ResponseRow,
    VerdictRow,
)
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import (
    Item,
    ItemDetail,
    ItemQA,
    ModelPanel,
    Progress,
    Rater,
    Response,
    Verdict,
)
from w2c_tui.domain.models import ItemRow as ItemLine
from w2c_tui.domain.review import ItemFilter, ReviewMode, ToolCount

QUESTION_PREVIEW = 200


def _human_current(rater_id: int | None) -> Any:
    """Condition: a current, ok verdict by this annotator."""
    return and_(
        col(VerdictRow.rater_id) == (rater_id if rater_id is not None else -1),
        col(VerdictRow.is_current).is_(True),
        col(VerdictRow.status) == VerdictStatus.OK.value,
    )


def labelled_condition(mode: ReviewMode, rater_id: int | None) -> Any:
    """SQL condition: the item counts as labelled by this annotator in this mode."""
    if mode is ReviewMode.ITEM_QA:
        return exists().where(
            col(VerdictRow.item_id) == col(ItemRow.id),
            col(VerdictRow.target_model_id).is_(None),
            _human_current(rater_id),
        )
    unlabelled_response = exists().where(
        col(ResponseRow.item_id) == col(ItemRow.id),
        not_(
            exists().where(
                col(VerdictRow.response_id) == col(ResponseRow.id), _human_current(rater_id)
            )
        ),
    )
    return not_(unlabelled_response)


def disagreement_condition() -> Any:
    """SQL condition: some human and some judge read one response differently."""
    human = aliased(VerdictRow)
    judge = aliased(VerdictRow)
    human_rater = aliased(RaterRow)
    judge_rater = aliased(RaterRow)
    return exists().where(
        col(human.item_id) == col(ItemRow.id),
        col(human.is_current).is_(True),
        col(human.status) == VerdictStatus.OK.value,
        col(human_rater.id) == col(human.rater_id),
        col(human_rater.kind) == RaterKind.HUMAN.value,
        col(judge.response_id) == col(human.response_id),
        col(judge.is_current).is_(True),
        col(judge.status) == VerdictStatus.OK.value,
        col(judge_rater.id) == col(judge.rater_id),
        col(judge_rater.kind) == RaterKind.JUDGE.value,
        col(judge.label) != col(human.label),
    )


def filter_conditions(
    dataset_id: int, flt: ItemFilter, mode: ReviewMode, rater_id: int | None
) -> list[Any]:
    """All WHERE conditions for `flt`."""
    conditions: list[Any] = [col(ItemRow.dataset_id) == dataset_id]
    if flt.gold is not None:
        conditions.append(col(ItemRow.gold) == flt.gold.value)
    if flt.tools is ToolCount.NONE:
        conditions.append(col(ItemRow.n_tools) == 0)
    elif flt.tools is ToolCount.ONE:
        conditions.append(col(ItemRow.n_tools) == 1)
    elif flt.tools is ToolCount.SEVERAL:
        conditions.append(col(ItemRow.n_tools) >= 2)
    if flt.source:
        conditions.append(col(ItemRow.source) == flt.source)
    if flt.labelled is not None:
        labelled = labelled_condition(mode, rater_id)
        conditions.append(labelled if flt.labelled else not_(labelled))
    if flt.disagree:
        conditions.append(disagreement_condition())
    if flt.search:  # case-insensitive (SQLite's lower() is made Unicode-aware in engine.py)
        conditions.append(
            or_(
                col(ItemRow.question).icontains(flt.search, autoescape=True),
                col(ItemRow.uuid).icontains(flt.search, autoescape=True),
            )
        )
    return conditions


class ItemQueries:
    """Reads items for the list and the detail panes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def count(self, dataset: str, flt: ItemFilter, mode: ReviewMode, rater_id: int | None) -> int:
        """How many items match."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            assert ds.id is not None
            query = (
                select(func.count())
                .select_from(ItemRow)
                .where(*filter_conditions(ds.id, flt, mode, rater_id))
            )
            return int(session.exec(query).one())

    def window(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        offset: int,
        limit: int,
    ) -> list[ItemLine]:
        """The matching items from `offset`, at most `limit`, in file order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            assert ds.id is not None
            labelled = labelled_condition(mode, rater_id)
            query = (
                sa_select(
                    col(ItemRow.id),
                    col(ItemRow.uuid),
                    col(ItemRow.position),
                    col(ItemRow.gold),
                    col(ItemRow.n_tools),
                    func.substr(col(ItemRow.question), 1, QUESTION_PREVIEW),
                    labelled,
                )
                .where(*filter_conditions(ds.id, flt, mode, rater_id))
                .order_by(col(ItemRow.position))
                .offset(offset)
                .limit(limit)
            )
            return [_line(*row) for row in session.execute(query).all()]

    def ids(
        self, dataset: str, flt: ItemFilter, mode: ReviewMode, rater_id: int | None
    ) -> list[int]:
        """Ids of every matching item, in file order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            assert ds.id is not None
            query = (
                select(ItemRow.id)
                .where(*filter_conditions(ds.id, flt, mode, rater_id))
                .order_by(col(ItemRow.position))
            )
            return [int(i) for i in session.exec(query).all() if i is not None]

    def rows(self, ids: Sequence[int], mode: ReviewMode, rater_id: int | None) -> list[ItemLine]:
        """List rows for these item ids, in the order given."""
        if not ids:
            return []
        with Session(self.engine) as session:
            labelled = labelled_condition(mode, rater_id)
            query = sa_select(
                col(ItemRow.id),
                col(ItemRow.uuid),
                col(ItemRow.position),
                col(ItemRow.gold),
                col(ItemRow.n_tools),
                func.substr(col(ItemRow.question), 1, QUESTION_PREVIEW),
                labelled,
            )
            found = {
                row[0]: _line(*row)
                for chunk in chunked(ids)
                for row in session.execute(query.where(col(ItemRow.id).in_(chunk))).all()
            }
            return [found[i] for i in ids if i in found]

    def index_of(
        self, dataset: str, flt: ItemFilter, mode: ReviewMode, rater_id: int | None, item_id: int
    ) -> int | None:
        """The row number of `item_id` in the filtered list (None when filtered out)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            assert ds.id is not None
            target = session.get(ItemRow, item_id)
            if target is None or target.dataset_id != ds.id:
                return None
            conditions = filter_conditions(ds.id, flt, mode, rater_id)
            present = session.exec(
                select(func.count())
                .select_from(ItemRow)
                .where(*conditions, col(ItemRow.id) == item_id)
            ).one()
            if not present:
                return None
            before = session.exec(
                select(func.count())
                .select_from(ItemRow)
                .where(*conditions, col(ItemRow.position) < target.position)
            ).one()
            return int(before)

    def next_unlabelled(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        after_position: int,
    ) -> int | None:
        """The id of the first unlabelled matching item after `after_position` (wrapping)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            assert ds.id is not None
            conditions = [
                *filter_conditions(ds.id, flt, mode, rater_id),
                not_(labelled_condition(mode, rater_id)),
            ]
            for extra in (
                col(ItemRow.position) > after_position,
                col(ItemRow.position) <= after_position,
            ):
                found = session.exec(
                    select(ItemRow.id)
                    .where(*conditions, extra)
                    .order_by(col(ItemRow.position))
                    .limit(1)
                ).first()
                if found is not None:
                    return int(found)
            return None

    def find(self, dataset: str, uuid: str) -> Item:
        """The item with this uuid (or a unique uuid prefix) in `dataset`."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            assert ds.id is not None
            rows = session.exec(
                select(ItemRow)
                .where(
                    col(ItemRow.dataset_id) == ds.id,
                    func.lower(col(ItemRow.uuid)).startswith(uuid.strip().lower(), autoescape=True),
                )
                .limit(2)
            ).all()
            exact = [r for r in rows if r.uuid == uuid.strip()]
            if exact:
                return to_item(exact[0], ds.name)
            if len(rows) == 1:
                return to_item(rows[0], ds.name)
            if not rows:
                raise NotFoundError(f"no item with uuid {uuid!r} in dataset {dataset!r}")
            raise NotFoundError(f"uuid prefix {uuid!r} matches several items; type more of it")

    def sources(self, dataset: str) -> list[str]:
        """The distinct `source` values of a dataset."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.exec(
                select(ItemRow.source).where(col(ItemRow.dataset_id) == ds.id).distinct()
            ).all()
            return sorted(s for s in rows if s)

    def progress(self, dataset: str, mode: ReviewMode, rater_id: int | None) -> Progress:
        """Labelled / total for this annotator."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            in_dataset = col(ItemRow.dataset_id) == ds.id
            counted: Any  # the verdict column whose distinct values count as labelled
            if mode is ReviewMode.ITEM_QA:  # items, labelled by item-level verdicts
                total_query = select(func.count()).select_from(ItemRow).where(in_dataset)
                counted, scope = col(VerdictRow.item_id), col(VerdictRow.target_model_id).is_(None)
            else:  # responses, labelled by verdicts on them
                total_query = (
                    select(func.count())
                    .select_from(ResponseRow)
                    .join(ItemRow, col(ItemRow.id) == col(ResponseRow.item_id))
                    .where(in_dataset)
                )
                counted, scope = (
                    col(VerdictRow.response_id),
                    col(VerdictRow.response_id).is_not(None),
                )
            total = session.exec(total_query).one()
            done = session.exec(
                select(func.count(func.distinct(counted)))
                .join(ItemRow, col(ItemRow.id) == col(VerdictRow.item_id))
                .where(in_dataset, scope, _human_current(rater_id))
            ).one()
            return Progress(done=int(done), total=int(total))

    def detail(self, item_id: int, rater_id: int | None) -> ItemDetail:
        """The item with its responses, every current verdict, and this annotator's QA."""
        with Session(self.engine) as session:
            row = session.get(ItemRow, item_id)
            if row is None:
                raise NotFoundError(f"no item with id {item_id}")
            ds = session.get(DatasetRow, row.dataset_id)
            assert ds is not None
            item = to_item(row, ds.name)
            models = target_model_names(session)
            raters: dict[int, Rater] = {}
            verdict_rows = session.exec(
                select(VerdictRow)
                .where(col(VerdictRow.item_id) == item_id, col(VerdictRow.is_current).is_(True))
                .order_by(col(VerdictRow.id))
            ).all()
            for rid in {v.rater_id for v in verdict_rows} - raters.keys():
                rater = session.get(RaterRow, rid)
                assert rater is not None
                raters[rid] = to_rater(rater)
            verdicts = [
                to_verdict(
                    v,
                    raters[v.rater_id],
                    models.get(v.target_model_id) if v.target_model_id else None,
                )
                for v in verdict_rows
            ]
            responses = session.exec(
                select(ResponseRow)
                .where(col(ResponseRow.item_id) == item_id)
                .order_by(col(ResponseRow.id))
            ).all()
            return ItemDetail(
                item=item,
                models=_panels(item_id, responses, verdicts, models),
                qa=_qa(session, item_id, rater_id, verdicts),
            )


def _panels(
    item_id: int, responses: Sequence[ResponseRow], verdicts: list[Verdict], models: dict[int, str]
) -> tuple[ModelPanel, ...]:
    names: list[str] = []
    for r in responses:
        if models[r.target_model_id] not in names:
            names.append(models[r.target_model_id])
    for v in verdicts:
        if v.target_model and v.target_model not in names:
            names.append(v.target_model)
    panels = []
    for name in names:
        mine = [r for r in responses if models[r.target_model_id] == name]
        panels.append(
            ModelPanel(
                target_model=name,
                responses=tuple(
                    Response(
                        id=r.id,
                        item_id=item_id,
                        target_model=name,
                        text=r.text,
                        created_at=r.created_at,
                        verdicts=tuple(v for v in verdicts if v.response_id == r.id),
                    )
                    for r in mine
                ),
                model_verdicts=tuple(
                    v for v in verdicts if v.target_model == name and v.response_id is None
                ),
            )
        )
    return tuple(panels)


def _qa(session: Session, item_id: int, rater_id: int | None, verdicts: list[Verdict]) -> ItemQA:
    if rater_id is None:
        return ItemQA(label=None, flags=frozenset(), note="")
    label = next(
        (
            v.label
            for v in verdicts
            if v.rater.id == rater_id and v.target_model is None and v.status is VerdictStatus.OK
        ),
        None,
    )
    flags: dict[str, bool] = {}
    for code, active in session.exec(
        select(QAFlagRow.code, QAFlagRow.active)
        .where(col(QAFlagRow.item_id) == item_id, col(QAFlagRow.rater_id) == rater_id)
        .order_by(col(QAFlagRow.id))
    ).all():
        flags[code] = active
    note = session.exec(
        select(NoteRow.text)
        .where(col(NoteRow.item_id) == item_id, col(NoteRow.rater_id) == rater_id)
        .order_by(col(NoteRow.id).desc())
        .limit(1)
    ).first()
    return ItemQA(label=label, flags=frozenset(c for c, on in flags.items() if on), note=note or "")


def _line(
    item_id: int, uuid: str, position: int, gold: str | None, n_tools: int, question: str, lab: Any
) -> ItemLine:
    """An items-list row from (id, uuid, position, gold, n_tools, question preview, labelled)."""
    return ItemLine(
        id=item_id,
        uuid=uuid,
        position=position,
        gold=Label(gold) if gold else None,
        n_tools=n_tools,
        question=question,
        labelled=bool(lab),
    )
