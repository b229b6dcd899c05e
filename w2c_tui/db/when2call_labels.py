"""Which rows of the one label store are When2Call labels, and how a new one is addressed.

A When2Call label (a person's, a judge's, a log-prob scorer's, an adjudication) is the answer to
the question `behaviour` of a built-in schema: `when2call-item-qa` when its unit is the item
alone, `when2call-behaviour` when it is a model's response or a model's reading of the item.
Every query that reads When2Call labels from `label` goes through `when2call()`; every writer
addresses its row with `schema_for`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_
from sqlmodel import col

from w2c_tui.db.tables import LabelRow
from w2c_tui.domain.schema_builtins import WHEN2CALL_BEHAVIOUR, WHEN2CALL_ITEM_QA

QUESTION = "behaviour"
"""The question every When2Call label answers."""
SCHEMAS = (WHEN2CALL_ITEM_QA.name, WHEN2CALL_BEHAVIOUR.name)


def schema_for(model_id: int | None, response_id: int | None) -> str:
    """The built-in schema of a When2Call label on this unit."""
    if model_id is None and response_id is None:
        return WHEN2CALL_ITEM_QA.name
    return WHEN2CALL_BEHAVIOUR.name


def when2call(table: Any = LabelRow) -> Any:
    """The condition that keeps When2Call labels (of `table`, `LabelRow` or an alias of it)."""
    return and_(col(table.schema_name).in_(SCHEMAS), col(table.question) == QUESTION)


def when2call_row(
    *, model_id: int | None, response_id: int | None, label: str | None, **fields: Any
) -> LabelRow:
    """A new When2Call label row on the unit (item, model, response) answering `label`."""
    return LabelRow(
        schema_name=schema_for(model_id, response_id),
        question=QUESTION,
        target_model_id=model_id,
        response_id=response_id,
        value=label,
        **fields,
    )
