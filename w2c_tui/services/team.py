"""Team progress: assigned / done / pace per annotator, complete units, human α on them."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from itertools import pairwise

from w2c_tui.db.store import Store
from w2c_tui.domain.labels import LABELS, VerdictStatus
from w2c_tui.domain.team import (
    AnnotatorProgress,
    AssignUnits,
    Estimate,
    TeamStatus,
)
from w2c_tui.stats import RatingTable, krippendorff_alpha

IDLE_GAP_S = 300.0
"""Gaps between two labels longer than this are breaks: they do not count as active time."""
PACE_MIN_LABELS = 10
PACE_MIN_ACTIVE_S = 300.0
"""A pace rests on at least this many labels and this much active time; before that it is not
given ("—"): two labels three seconds apart are not 1,200 an hour."""


def active_pace(stamps: list[datetime]) -> tuple[float | None, float]:
    """(labels per hour of active time, active minutes) from label timestamps; the pace is
    None until it rests on PACE_MIN_LABELS labels and PACE_MIN_ACTIVE_S of active time."""
    times = sorted(stamps)
    active = sum(min((b - a).total_seconds(), IDLE_GAP_S) for a, b in pairwise(times))
    if len(times) < PACE_MIN_LABELS or active < PACE_MIN_ACTIVE_S:
        return None, active / 60
    return (len(times) - 1) / (active / 3600), active / 60


class TeamService:
    """Who is on the team and how far they are (builds statistics: loaded on first use)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def annotators(self) -> list[str]:
        """Every human annotator in the database."""
        return self._store.team.annotators()

    def status(self, dataset: str, *, bootstrap: int = 1000, seed: int = 0) -> TeamStatus:
        """Progress of every annotator; α of the humans on the units all K have labelled."""
        store = self._store
        plan, units = None, None
        for kind in AssignUnits:  # responses first: behaviour labels are the usual plan
            plan = store.assignments.plan(dataset, kind)
            if plan is not None:
                units = kind
                break
        assigned = [
            a
            for a in (store.assignments.show(dataset) if plan else [])
            if (a.target_model is None) == (units is AssignUnits.ITEMS)
        ]
        events = store.team.history(dataset)
        stamps: dict[str, list[datetime]] = defaultdict(list)
        current: dict[str, int] = defaultdict(int)
        for event in events:
            if event.source == "tui":  # imported labels carry the import's time, not a pace
                stamps[event.annotator].append(event.created_at)
            if event.is_current and event.status is VerdictStatus.OK:
                current[event.annotator] += 1
        names = sorted(set(stamps) | set(current) | {a.annotator for a in assigned})
        rows = []
        for name in names:
            mine = [a for a in assigned if a.annotator == name]
            per_hour, minutes = active_pace(stamps.get(name, []))
            rows.append(
                AnnotatorProgress(
                    annotator=name,
                    assigned=len(mine),
                    done=sum(1 for a in mine if a.done),
                    labels=current.get(name, 0),
                    per_hour=per_hour,
                    active_minutes=minutes,
                    last_active=max(stamps[name]) if stamps.get(name) else None,
                )
            )
        by_unit: dict[tuple[str, str | None], list[tuple[str, str | None]]] = defaultdict(list)
        for a in assigned:
            label = a.label.value if a.label else None
            by_unit[(a.item_uuid, a.target_model)].append((a.annotator, label))
        complete = {u: v for u, v in by_unit.items() if all(label for _, label in v)}
        return TeamStatus(
            dataset=dataset,
            units=units,
            overlap=plan.overlap if plan else None,
            annotators=tuple(rows),
            units_assigned=len(by_unit),
            units_complete=len(complete),
            alpha=_alpha(complete, bootstrap, seed)
            if plan
            else Estimate(None, reason="no assignment plan: `w2c assign` makes one"),
        )


def _alpha(
    complete: dict[tuple[str, str | None], list[tuple[str, str | None]]], bootstrap: int, seed: int
) -> Estimate:
    if not complete:
        return Estimate(None, reason="no unit has all its assigned labels yet")
    records = [
        (f"{uuid}@{model or ''}", annotator, label)
        for (uuid, model), labels in complete.items()
        for annotator, label in labels
    ]
    table = RatingTable.from_long(records, [label.value for label in LABELS])
    result = krippendorff_alpha(table, bootstrap=bootstrap, seed=seed)
    low, high = result.ci if result.ci is not None else (None, None)
    return Estimate(value=result.value, low=low, high=high, n=result.n, reason=result.reason)
