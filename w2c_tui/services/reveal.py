"""What the reveal does to labels: post-reveal flips and pre- vs post-reveal agreement.

A label is *pre-reveal* when it is an annotator's first label on a unit and was made blind
(nothing of the unit revealed). A *post-reveal flip* is a later label on the same unit that
differs from the annotator's previous label and was made after a reveal (the unit's model and
raters, or gold, had been shown). If annotators drift towards what they were shown, their
agreement with the judge rises from their pre-reveal labels to their current ones.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from w2c_tui.db.store import Store
from w2c_tui.db.team import LabelEvent
from w2c_tui.domain.dashboard import (
    EstimateDoc,
    RevealAnnotatorDoc,
    RevealDoc,
    RevealVersusDoc,
)
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.review import UnitKind
from w2c_tui.domain.team import AssignUnits, Seen
from w2c_tui.services.dashboard.common import on_enough
from w2c_tui.services.readings import Readings
from w2c_tui.stats import cohen_kappa


@dataclass(frozen=True, slots=True)
class UnitTrail:
    """One annotator's labels on one unit, oldest first."""

    annotator: str
    unit: str
    first: Label
    first_seen: Seen | None
    current: Label | None
    flips: int


def _trails(
    events: list[LabelEvent], unit_of: dict[tuple[int, int | None], str]
) -> list[UnitTrail]:
    grouped: dict[tuple[str, str], list[LabelEvent]] = defaultdict(list)
    for event in events:
        unit = unit_of.get((event.item_id, event.response_id))
        if unit is not None:
            grouped[(event.annotator, unit)].append(event)
    trails = []
    for (annotator, unit), trail in grouped.items():
        labelled = [e for e in trail if e.status is VerdictStatus.OK and e.label is not None]
        if not labelled:
            continue
        flips = 0
        for before, after in pairwise(labelled):
            if after.label != before.label and after.seen is not None and after.seen.after_reveal:
                flips += 1
        last = trail[-1]
        trails.append(
            UnitTrail(
                annotator=annotator,
                unit=unit,
                first=labelled[0].label,  # type: ignore[arg-type]
                first_seen=labelled[0].seen,
                current=last.label if last.status is VerdictStatus.OK else None,
                flips=flips,
            )
        )
    return trails


def _versus(trails: list[UnitTrail], readings: Readings, rater: str) -> RevealVersusDoc | None:
    pairs = [
        (t.first, t.current, judged)
        for t in trails
        if t.first_seen is Seen.BLIND
        and t.current is not None
        and (judged := readings.label(t.unit, rater)) is not None
    ]
    if not pairs:
        return None
    pre = np.array([p[0].option for p in pairs])
    post = np.array([p[1].option for p in pairs])
    other = np.array([p[2].option for p in pairs])
    return RevealVersusDoc(
        rater=rater,
        n=len(pairs),
        agreement_pre_reveal=float(np.mean(pre == other)),
        agreement_current=float(np.mean(post == other)),
        kappa_pre_reveal=on_enough(EstimateDoc.of(cohen_kappa(pre, other, 4).as_json())),
        kappa_current=on_enough(EstimateDoc.of(cohen_kappa(post, other, 4).as_json())),
    )


def reveal_effects(store: Store, dataset: str, readings: Readings) -> RevealDoc:
    """Per annotator: blind first labels, post-reveal flips, agreement with each automated rater
    before and after the reveal (on the units they first labelled blind)."""
    units = AssignUnits.ITEMS if readings.kind is UnitKind.ITEM else AssignUnits.RESPONSES
    unit_of = {
        (unit.item_id, unit.response_id): unit.key
        for unit in store.assignments.candidates(dataset, units)
    }
    trails = _trails(store.team.history(dataset), unit_of)
    automated = [r.key for r in readings.automated() if r.reading == "label"]
    annotators = sorted({t.annotator for t in trails})
    rows: list[RevealAnnotatorDoc] = []
    for annotator in annotators:
        mine = [t for t in trails if t.annotator == annotator]
        blind = sum(1 for t in mine if t.first_seen is Seen.BLIND)
        flips = sum(t.flips for t in mine)
        versus = [v for r in automated if (v := _versus(mine, readings, r)) is not None]
        rows.append(
            RevealAnnotatorDoc(
                annotator=annotator,
                units_labelled=len(mine),
                first_labels_blind=blind,
                post_reveal_flips=flips,
                units_flipped=sum(1 for t in mine if t.flips),
                flip_rate=flips / len(mine) if mine else None,
                versus=tuple(versus),
            )
        )
    return RevealDoc(
        unit_kind=readings.kind.value,
        definition="pre-reveal = an annotator's first label on a unit, made blind; a "
        "post-reveal flip = a later label that differs from the previous one and was made "
        "after the unit's reveal; agreement is on the units first labelled blind",
        annotators=tuple(rows),
    )
