"""The items list as SQL: which items a filter keeps, in which order, which count as done.

Three orders: the file's; shuffled per annotator (blind mode: the item's fixed `shuffle_key`
XOR the annotator's own key, so every annotator sees a different order and none of them the
gold-sorted file order); and an assigned queue (each item's seeded `order_key`). Every
position-based question (row number, "next unlabelled") uses the same key with the file
position as tie-break, so the list, the counts and the cursor always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, exists, func, literal, not_
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import col

from w2c_tui.db.checklist import flag_on
from w2c_tui.db.item_search import Search, search_condition
from w2c_tui.db.tables import (
    AssignmentPlanRow,
    AssignmentRow,
    ItemRow,
    LabelRow,
    RaterRow,
    ResponseRow,
)
from w2c_tui.db.when2call_labels import when2call
from w2c_tui.domain.labels import RaterKind, VerdictStatus
from w2c_tui.domain.qa import ANY_FLAG
from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode, ToolCount
from w2c_tui.domain.team import AssignUnits


@dataclass(frozen=True, slots=True)
class ListSpec:
    """Everything that decides the list: dataset, filter, mode, whose list, their order key."""

    dataset_id: int
    flt: ItemFilter
    mode: ReviewMode
    rater_id: int | None
    salt: int = 0
    """The annotator's own key (domain.team.annotator_key) for the shuffled order."""
    search: Search | None = None
    """The filter's search made ready for this database's index (db/item_search); a search
    not made ready scans."""

    @property
    def units(self) -> AssignUnits:
        """The kind of assigned unit this mode labels."""
        return AssignUnits.ITEMS if self.mode is ReviewMode.ITEM_QA else AssignUnits.RESPONSES


def human_current(rater_id: int | None) -> Any:
    """Condition on LabelRow: a current When2Call label (not withdrawn) by this annotator."""
    return and_(
        when2call(),
        col(LabelRow.rater_id) == (rater_id if rater_id is not None else -1),
        col(LabelRow.is_current).is_(True),
        col(LabelRow.status) == VerdictStatus.OK.value,
    )


def _assigned(spec: ListSpec, *extra: Any) -> Any:
    plans = sa_select(col(AssignmentPlanRow.id)).where(
        col(AssignmentPlanRow.dataset_id) == spec.dataset_id,
        col(AssignmentPlanRow.unit_kind) == spec.units.value,
    )
    return exists().where(
        col(AssignmentRow.item_id) == col(ItemRow.id),
        col(AssignmentRow.rater_id) == (spec.rater_id if spec.rater_id is not None else -1),
        col(AssignmentRow.plan_id).in_(plans),
        *extra,
    )


def labelled_condition(spec: ListSpec) -> Any:
    """The item counts as done by this annotator (in a queue: every assigned unit of it)."""
    mine = human_current(spec.rater_id)
    if spec.mode is ReviewMode.ITEM_QA:
        return exists().where(
            col(LabelRow.item_id) == col(ItemRow.id),
            col(LabelRow.target_model_id).is_(None),
            mine,
        )
    if spec.flt.queue:
        open_unit = _assigned(
            spec,
            not_(exists().where(col(LabelRow.response_id) == col(AssignmentRow.response_id), mine)),
        )
        return not_(open_unit)
    unlabelled_response = exists().where(
        col(ResponseRow.item_id) == col(ItemRow.id),
        not_(exists().where(col(LabelRow.response_id) == col(ResponseRow.id), mine)),
    )
    return not_(unlabelled_response)


def disagreement_condition() -> Any:
    """Some human and some judge read one response differently."""
    human = aliased(LabelRow)
    judge = aliased(LabelRow)
    human_rater = aliased(RaterRow)
    judge_rater = aliased(RaterRow)
    return exists().where(
        col(human.item_id) == col(ItemRow.id),
        when2call(human),
        col(human.is_current).is_(True),
        col(human.status) == VerdictStatus.OK.value,
        col(human_rater.id) == col(human.rater_id),
        col(human_rater.kind) == RaterKind.HUMAN.value,
        col(judge.response_id) == col(human.response_id),
        when2call(judge),
        col(judge.is_current).is_(True),
        col(judge.status) == VerdictStatus.OK.value,
        col(judge_rater.id) == col(judge.rater_id),
        col(judge_rater.kind) == RaterKind.JUDGE.value,
        col(judge.value) != col(human.value),
    )


def flag_condition(code: str) -> Any:
    """Someone has this QA flag (any flag for ANY_FLAG) switched on for the item now: their
    current checklist answer is "yes"."""
    flag = aliased(LabelRow)
    wanted = [] if code == ANY_FLAG else [col(flag.question) == code]
    return exists().where(col(flag.item_id) == col(ItemRow.id), flag_on(flag), *wanted)


def conditions(spec: ListSpec) -> list[Any]:
    """All WHERE conditions of the list."""
    flt = spec.flt
    out: list[Any] = [col(ItemRow.dataset_id) == spec.dataset_id]
    if flt.gold is not None:
        out.append(col(ItemRow.gold) == flt.gold.value)
    if flt.tools is ToolCount.NONE:
        out.append(col(ItemRow.n_tools) == 0)
    elif flt.tools is ToolCount.ONE:
        out.append(col(ItemRow.n_tools) == 1)
    elif flt.tools is ToolCount.SEVERAL:
        out.append(col(ItemRow.n_tools) >= 2)
    if flt.source:
        out.append(col(ItemRow.source) == flt.source)
    if flt.queue:
        out.append(_assigned(spec))
    if flt.labelled is not None:
        labelled = labelled_condition(spec)
        out.append(labelled if flt.labelled else not_(labelled))
    if flt.disagree:
        out.append(disagreement_condition())
    if flt.flag:
        out.append(flag_condition(flt.flag))
    if flt.search:
        out.append(search_condition(spec.search or Search(flt.search)))
    if flt.finished_only:  # blind: gold and other raters only about units already labelled
        out.append(labelled_condition(spec))
        if spec.mode is ReviewMode.RESPONSES:  # an item without responses is not finished
            out.append(
                exists().where(
                    col(LabelRow.item_id) == col(ItemRow.id),
                    col(LabelRow.response_id).is_not(None),
                    human_current(spec.rater_id),
                )
            )
    return out


def order_key(spec: ListSpec, item: Any = None) -> Any:
    """The list's sort key for ItemRow (or for the `item` alias), file position breaking ties."""
    table = item if item is not None else ItemRow
    if spec.flt.queue:
        plans = sa_select(col(AssignmentPlanRow.id)).where(
            col(AssignmentPlanRow.dataset_id) == spec.dataset_id,
            col(AssignmentPlanRow.unit_kind) == spec.units.value,
        )
        return (
            sa_select(func.min(col(AssignmentRow.order_key)))
            .where(
                col(AssignmentRow.item_id) == table.id,
                col(AssignmentRow.rater_id) == (spec.rater_id or -1),
                col(AssignmentRow.plan_id).in_(plans),
            )
            .scalar_subquery()
        )
    if spec.flt.order is ListOrder.SHUFFLED:
        salt = literal(spec.salt)
        key: Any = col(table.shuffle_key)
        return key.op("|")(salt) - key.op("&")(salt)  # XOR, which SQLite spells this way
    return table.position
