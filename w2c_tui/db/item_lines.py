"""One items-list row per item: the columns the list shows and the annotator's done mark."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlmodel import col

from w2c_tui.db.item_filters import ListSpec, labelled_condition
from w2c_tui.db.tables import ItemRow
from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import ItemRow as ItemLine

QUESTION_PREVIEW = 200


def line_query(spec: ListSpec) -> Any:
    """The columns of a list row (question cut to a preview) and whether it is done.

    Built once per list (the statement is immutable; a caller adds its own WHERE): building
    it costs about as much as the one-row query that re-reads a row after a label."""
    return _line_query(replace(spec, search=None))  # the search is not part of the columns


@lru_cache(maxsize=32)
def _line_query(spec: ListSpec) -> Any:
    return sa_select(
        col(ItemRow.id),
        col(ItemRow.uuid),
        col(ItemRow.position),
        col(ItemRow.gold),
        col(ItemRow.n_tools),
        func.substr(col(ItemRow.question), 1, QUESTION_PREVIEW),
        labelled_condition(spec),
    )


def line(
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
