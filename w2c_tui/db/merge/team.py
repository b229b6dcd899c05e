"""Merging the team's plans: guideline versions (by text) and assignment plans and units."""

from __future__ import annotations

from sqlalchemy import insert
from sqlmodel import col, select

from w2c_tui.db.merge.base import Merger
from w2c_tui.db.tables import (
    AssignmentPlanRow,
    AssignmentRow,
    GuidelineRow,
    GuidelineSeenRow,
)


def merge_guidelines(m: Merger) -> None:
    """Guideline versions by text: a new text keeps its number where it is free."""
    for g in m.src.guidelines:
        if g["dataset"] not in m.datasets or m.guideline_id(g["dataset"], g["sha256"]):
            continue
        dataset_id = m.datasets[g["dataset"]]
        taken = {
            v for (v,) in m.s.execute(
                select(GuidelineRow.version).where(GuidelineRow.dataset_id == dataset_id)
            )
        }  # fmt: skip
        version = g["version"] if g["version"] not in taken else max(taken) + 1
        values = {k: g[k] for k in ("text", "sha256", "source_path", "created_at")}
        m.s.execute(insert(GuidelineRow).values(dataset_id=dataset_id, version=version, **values))
        m.out.guidelines += 1
    for seen in m.src.guideline_seen:
        g = seen["guideline"]
        if g["dataset"] not in m.datasets:
            continue
        guideline = m.guideline_id(g["dataset"], g["sha256"])
        rater = m.raters[seen["rater"]]
        known = m.s.execute(
            select(GuidelineSeenRow.id).where(
                GuidelineSeenRow.rater_id == rater, GuidelineSeenRow.guideline_id == guideline
            )
        ).first()
        if known is None:
            m.s.execute(
                insert(GuidelineSeenRow).values(
                    rater_id=rater, guideline_id=guideline, seen_at=seen["seen_at"]
                )
            )


def merge_assignments(m: Merger) -> None:
    """Assignment plans and units: a plan the target lacks is copied; one with another seed
    or overlap is not touched (reported)."""
    plans: dict[tuple[str, str], int | None] = {}
    for plan in m.src.plans:
        if plan["dataset"] not in m.datasets:
            continue
        dataset_id = m.datasets[plan["dataset"]]
        found = m.s.execute(
            select(AssignmentPlanRow).where(
                col(AssignmentPlanRow.dataset_id) == dataset_id,
                AssignmentPlanRow.unit_kind == plan["unit_kind"],
            )
        ).first()
        key = (plan["dataset"], plan["unit_kind"])
        if found is None:
            values = {k: v for k, v in plan.items() if k != "dataset"}
            result = m.s.execute(
                insert(AssignmentPlanRow)
                .values(dataset_id=dataset_id, **values)
                .returning(col(AssignmentPlanRow.id))
            )
            plans[key] = result.scalar_one()
        elif (found[0].seed, found[0].overlap) != (plan["seed"], plan["overlap"]):
            plans[key] = None
            m.out.skipped.append(
                f"assignments of {plan['dataset']} ({plan['unit_kind']}): the target's plan "
                f"has seed {found[0].seed}, overlap {found[0].overlap}; this file's "
                f"{plan['seed']}, {plan['overlap']} (w2c assign to change a plan)"
            )
        else:
            plans[key] = found[0].id
    have = {
        (r, i, p or 0)
        for r, i, p in m.s.execute(
            select(AssignmentRow.rater_id, AssignmentRow.item_id, AssignmentRow.response_id)
        )
    }
    new = []
    for row in m.src.assignments:
        plan_id = plans.get((row["dataset"], row["unit_kind"]))
        if plan_id is None:
            continue
        if row["rater"] not in m.raters:
            continue
        rater, item, model, response = m.unit(row)
        if (rater, item, response or 0) in have:
            continue
        have.add((rater, item, response or 0))
        new.append(
            {
                "plan_id": plan_id,
                "rater_id": rater,
                "item_id": item,
                "target_model_id": model,
                "response_id": response,
                "order_key": row["order_key"],
                "created_at": row["created_at"],
            }
        )
    if new:
        m.s.execute(insert(AssignmentRow), new)
    m.out.assignments = len(new)
