"""`w2c next`: which unit a human should label next to settle whether a judge can stand in,
and what the labels so far say (stats.active has the method).

The units are the judge's readings of responses (behaviour units). Before any label, each
unit's prior that the judge agrees with the humans comes from the unit's other automated
readings — log-prob and MCQ-index scorers, other judges, the judge's own repeats — and the
accuracy those readers must share to agree with each other as often as they do. Near-
duplicates are the responses of several models to the same item: they share their weight.
The queue is seeded (`seed`), so everyone sees the same order until labels change the
estimate, never the order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import NotFoundError, W2CError
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.consensus import consensus
from w2c_tui.services.readings import (
    INVALID,
    RaterInfo,
    Readings,
    Unit,
    stored_readings,
)
from w2c_tui.stats import active

DEFAULT_BAR = 0.80
MARGIN = 0.10
"""The bar is the humans' own agreement less this, where two humans overlap enough."""
DEFAULT_ACCURACY = 0.75
"""The readers' shared accuracy when no unit has two readings to compare."""


@dataclass(frozen=True)
class NextUnit:
    """One unit in the queue."""

    rank: int
    item_uuid: str
    position: int
    target_model: str | None
    prior: float
    """P(the judge agrees with the humans) before a label (not shown to an annotator)."""
    weight: float


@dataclass(frozen=True)
class NextPlan:
    """The queue's head for one annotator (or anyone) and where the estimate stands."""

    dataset: str
    judge: str
    annotator: str | None
    bar: float
    bar_source: str
    width: float
    seed: int
    estimate: active.ActiveEstimate
    decision: str
    stop: bool
    readers_accuracy: float
    next: list[NextUnit] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """The `w2c next --json` document (priors left out for an annotator: they would say
        what the automated raters think of a unit before its label)."""
        est = self.estimate
        blind = self.annotator is not None
        return {
            "dataset": self.dataset,
            "judge": self.judge,
            "annotator": self.annotator,
            "quantity": "share of units where the judge's reading equals the human reference",
            "estimate": {
                "value": est.value,
                "ci": list(est.ci) if est.ci else None,
                "n": est.n_labelled,
                "n_units": est.n_units,
                "n_in_queue_order": est.n_prefix,
            },
            "bar": {"value": self.bar, "source": self.bar_source},
            "width": self.width,
            "decision": self.decision,
            "stop": self.stop,
            "seed": self.seed,
            "readers_accuracy": self.readers_accuracy,
            "next": [
                {
                    "rank": u.rank,
                    "item_uuid": u.item_uuid,
                    "position": u.position,
                    "target_model": u.target_model,
                    **({} if blind else {"prior": u.prior, "weight": u.weight}),
                }
                for u in self.next
            ],
        }


def _judge(readings: Readings, name: str | None) -> RaterInfo:
    judges = [r for r in readings.raters if r.kind is RaterKind.JUDGE and r.reading == "label"]
    if name is not None:
        for r in judges:
            if name in (r.key, r.name):
                return r
        known = ", ".join(r.key for r in judges) or "none"
        raise NotFoundError(f"no judge {name!r} on these responses (judges: {known})")
    if len(judges) != 1:
        known = ", ".join(r.key for r in judges) or "none"
        raise W2CError(f"name the judge with --judge (judges: {known})")
    return judges[0]


def _others(readings: Readings, judge: RaterInfo) -> list[RaterInfo]:
    return [
        r
        for r in readings.automated()
        if r.key != judge.key and r.reading == "label" and r.kind is not RaterKind.GOLD
    ]


def _reads(
    readings: Readings, unit: Unit, judge: RaterInfo, others: list[RaterInfo]
) -> list[Label]:
    """The unit's valid automated readings other than the judge's own current one."""
    out = [v for r in others if isinstance(v := readings.values.get((unit.key, r.key)), Label)]
    repeats = readings.samples.get((unit.key, judge.key), [])[1:]  # sample 0 is the verdict
    return out + [v for v in repeats if isinstance(v, Label)]


def _bar(readings: Readings) -> tuple[float, str]:
    """The humans' pairwise agreement less MARGIN where they overlap on enough units."""
    humans = readings.humans()
    same = pairs = 0
    units = 0
    for unit in readings.units:
        labels = [lab for h in humans if (lab := readings.label(unit.key, h.key)) is not None]
        if len(labels) >= 2:
            units += 1
            for a, b in combinations(labels, 2):
                pairs += 1
                same += a == b
    if units >= active.MIN_LABELS and pairs:
        agreement = same / pairs
        return max(agreement - MARGIN, 0.0), (
            f"the humans' own agreement {agreement:.3f} on {units} units less {MARGIN:.2f}"
        )
    return DEFAULT_BAR, (
        f"the default {DEFAULT_BAR:.2f}: fewer than {active.MIN_LABELS} units have two human "
        "labels to measure the humans' own agreement (--bar sets it)"
    )


@dataclass(frozen=True)
class NextOptions:
    """What `w2c next` was asked: the judge (None: the only one), whose units to leave out,
    how many to list, the bar (None: from the humans), the target width, the queue's seed and
    the humans a reference needs."""

    judge: str | None = None
    annotator: str | None = None
    k: int = 10
    bar: float | None = None
    width: float = 0.10
    seed: int = 0
    min_humans: int = 1


def plan(store: Store, dataset: str, options: NextOptions | None = None) -> NextPlan:
    """The next `k` units to label and the estimate so far (see the module)."""
    readings = stored_readings(store.ratings, dataset, UnitKind.BEHAVIOUR)
    return plan_readings(readings, dataset, options or NextOptions())


def plan_readings(readings: Readings, dataset: str, options: NextOptions) -> NextPlan:
    """`plan` on readings already arranged (the benchmark builds them without a database)."""
    o = options
    rater = _judge(readings, o.judge)
    others = _others(readings, rater)
    units = [u for u in readings.units if (u.key, rater.key) in readings.values]
    if not units:
        raise W2CError(f"{rater.key} has no readings of responses in {dataset!r}")
    values = [readings.values[(u.key, rater.key)] for u in units]
    reads = [_reads(readings, u, rater, others) for u in units]
    agree = [sum(r == v for r in rs) for v, rs in zip(values, reads, strict=True)]
    pairs = [
        float(a == b)
        for v, rs in zip(values, reads, strict=True)
        for a, b in combinations([*([v] if isinstance(v, Label) else []), *rs], 2)
    ]
    accuracy = active.accuracy_from_agreement(float(np.mean(pairs))) if pairs else DEFAULT_ACCURACY
    f = active.prior(agree, [len(rs) for rs in reads], [v == INVALID for v in values], accuracy)
    per_item = Counter(u.item_id for u in units)
    w = active.weights(f, [per_item[u.item_id] for u in units])
    q = active.priorities(w, o.seed)
    ref = consensus(readings, o.min_humans).labels
    labelled = np.array([u.key in ref for u in units])
    y = np.array([ref.get(u.key) == v for u, v in zip(units, values, strict=True)], dtype=float)
    est = active.estimate(f, w, q, labelled, y)
    bar_value, source = (o.bar, "given with --bar") if o.bar is not None else _bar(readings)
    decision, stop = active.decide(est, bar_value, o.width)
    mine = _labelled_by(readings, o.annotator) if o.annotator is not None else set()
    chosen = [
        i for i in active.queue(q) if not labelled[i] and units[i].key not in mine and w[i] > 0
    ][: o.k]
    return NextPlan(
        dataset=dataset,
        judge=rater.key,
        annotator=o.annotator,
        bar=bar_value,
        bar_source=source,
        width=o.width,
        seed=o.seed,
        estimate=est,
        decision=decision,
        stop=stop,
        readers_accuracy=accuracy,
        next=[
            NextUnit(
                rank=rank,
                item_uuid=units[i].item_uuid,
                position=units[i].position,
                target_model=units[i].target_model,
                prior=float(f[i]),
                weight=float(w[i]),
            )
            for rank, i in enumerate(chosen, 1)
        ],
    )


def _labelled_by(readings: Readings, annotator: str) -> set[str]:
    keys = {r.key for r in readings.humans() if r.name == annotator}
    return {u for (u, r) in readings.values if r in keys}


def item_order(store: Store, dataset: str, ids: list[int], seed: int = 0) -> list[int]:
    """The review list most informative first: items by their first unit in the queue of
    `plan` (the dataset's only judge, or the first by name when there are several), then the
    other items of `ids` in their order. No judge readings: `ids` unchanged."""
    readings = stored_readings(store.ratings, dataset, UnitKind.BEHAVIOUR)
    judges = sorted(r.key for r in readings.raters if r.kind is RaterKind.JUDGE)
    if not judges:
        return list(ids)
    try:
        options = NextOptions(judge=judges[0], k=len(readings.units), seed=seed)
        result = plan_readings(readings, dataset, options)
    except W2CError:  # the judge read no response
        return list(ids)
    by_uuid = {u.item_uuid: u.item_id for u in readings.units}
    wanted = set(ids)
    first: list[int] = []
    for unit in result.next:
        item = by_uuid.get(unit.item_uuid)
        if item is not None and item in wanted and item not in first:
            first.append(item)
    placed = set(first)
    return first + [i for i in ids if i not in placed]
