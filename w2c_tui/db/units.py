"""The units of a dataset: its items, or the latest response per item and model.

These are the units of agreement and of assignment plans (docs/team.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from w2c_tui.db.common import dataset_row
from w2c_tui.db.tables import ItemRow, ResponseRow, TargetModelRow
from w2c_tui.domain.labels import Label
from w2c_tui.domain.team import AssignUnits


@dataclass(frozen=True, slots=True)
class Candidate:
    """A unit that a plan can hand out, with the facts a selection stratifies on."""

    key: str
    item_id: int
    uuid: str
    position: int
    gold: Label | None
    n_tools: int
    source: str | None
    model_id: int | None = None
    model: str | None = None
    response_id: int | None = None


def unit_key(uuid: str, model: str | None) -> str:
    return uuid if model is None else f"{uuid}@{model}"


def dataset_units(engine: Engine, dataset: str, units: AssignUnits) -> list[Candidate]:
    """Every unit of the dataset, in file order (responses: by model name within an item)."""
    """Every unit of the dataset: its items, or the latest response per item and model."""
    with Session(engine) as session:
        ds = dataset_row(session, dataset)
        item_cols = (
            col(ItemRow.id),
            col(ItemRow.uuid),
            col(ItemRow.position),
            col(ItemRow.gold),
            col(ItemRow.n_tools),
            col(ItemRow.source),
        )
        if units is AssignUnits.ITEMS:
            rows = session.execute(
                sa_select(*item_cols)
                .where(col(ItemRow.dataset_id) == ds.id)
                .order_by(col(ItemRow.position))
            ).all()
            return [
                Candidate(u, i, u, p, Label(g) if g else None, n, s) for i, u, p, g, n, s in rows
            ]
        latest = (
            sa_select(func.max(col(ResponseRow.id)).label("rid"))
            .join(ItemRow, col(ItemRow.id) == col(ResponseRow.item_id))
            .where(col(ItemRow.dataset_id) == ds.id)
            .group_by(col(ResponseRow.item_id), col(ResponseRow.target_model_id))
            .subquery()
        )
        rows2 = session.execute(
            sa_select(
                *item_cols,
                col(TargetModelRow.id),
                col(TargetModelRow.name),
                col(ResponseRow.id),
            )
            .select_from(ResponseRow)
            .join(latest, latest.c.rid == col(ResponseRow.id))
            .join(ItemRow, col(ItemRow.id) == col(ResponseRow.item_id))
            .join(TargetModelRow, col(TargetModelRow.id) == col(ResponseRow.target_model_id))
            .order_by(col(ItemRow.position), col(TargetModelRow.name))
        ).all()
        return [
            Candidate(unit_key(u, m), i, u, p, Label(g) if g else None, n, s, mid, m, rid)
            for i, u, p, g, n, s, mid, m, rid in rows2
        ]
