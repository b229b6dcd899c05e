"""The human reference of each unit (adjudication first, then the majority) and how split the
raters are: what agreement, metrics, the disagreement queue and adjudication build on."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from w2c_tui.domain.dashboard import ConsensusDoc
from w2c_tui.domain.labels import Label
from w2c_tui.services.readings import Readings


@dataclass(frozen=True, slots=True)
class Consensus:
    """The human reference per unit: an adjudicated label where there is one, else the majority."""

    labels: dict[str, Label]
    ties: int
    """Units whose humans tie and that nobody adjudicated (excluded)."""
    too_few: int
    """Units with fewer human labels than required and no adjudication (excluded)."""
    adjudicated: int
    """References that come from an adjudication."""

    def as_json(self) -> ConsensusDoc:
        """Counts for reports and `--json` documents."""
        return ConsensusDoc(
            n=len(self.labels),
            ties_excluded=self.ties,
            too_few_humans=self.too_few,
            adjudicated=self.adjudicated,
            majority=len(self.labels) - self.adjudicated,
        )


def consensus(readings: Readings, min_humans: int = 1) -> Consensus:
    """The human reference: an adjudicated label takes precedence over the majority.

    Without an adjudication: the majority of the available human labels, when there are at
    least `min_humans` of them and the top label is not tied.
    """
    humans = [r.key for r in readings.humans()]
    out: dict[str, Label] = {}
    ties = too_few = adjudicated = 0
    for unit in readings.units:
        if unit.key in readings.adjudicated:
            out[unit.key] = readings.adjudicated[unit.key][0]
            adjudicated += 1
            continue
        labels = [lab for h in humans if (lab := readings.label(unit.key, h)) is not None]
        if not labels:
            continue
        if len(labels) < min_humans:
            too_few += 1
            continue
        counts = Counter(labels).most_common()
        if len(counts) > 1 and counts[0][1] == counts[1][1]:
            ties += 1
            continue
        out[unit.key] = counts[0][0]
    return Consensus(labels=out, ties=ties, too_few=too_few, adjudicated=adjudicated)


def human_unanimity(readings: Readings) -> dict[str, float]:
    """Per unit with ≥2 human labels: the share of humans agreeing with the majority."""
    humans = [r.key for r in readings.humans()]
    out: dict[str, float] = {}
    for unit in readings.units:
        labels = [lab for h in humans if (lab := readings.label(unit.key, h)) is not None]
        if len(labels) >= 2:
            out[unit.key] = Counter(labels).most_common(1)[0][1] / len(labels)
    return out


@dataclass(frozen=True, slots=True)
class Dispute:
    """How far an item's readings disagree: among the humans, and among every rater."""

    humans: float
    """1 − share of the most common human label, on the item's most split unit (0: unanimous
    or fewer than two humans)."""
    overall: float
    """1 − share of the most common reading among all raters (gold left out)."""
    unanimous: bool = False
    """At least two humans labelled the item's units and agree on every one."""

    @property
    def rank(self) -> tuple[int, float, float]:
        """Sort key, most disputed first: the humans' splits, then units without two human
        labels, then (last) units the humans agree on — each by how split all raters are."""
        tier = 0 if self.humans > 0 else (2 if self.unanimous else 1)
        return (tier, -self.humans, -self.overall)


def _split(values: list[Label | str]) -> float:
    if len(values) < 2:
        return 0.0
    return 1 - Counter(values).most_common(1)[0][1] / len(values)


def disagreement_scores(readings: Readings) -> dict[int, Dispute]:
    """Per item with any disagreement: the human split and the split among all raters.

    Gold is left out (it is what should happen, not a reading of the response); invalid
    readings count as their own value (an unusable judge output is worth a look).
    """
    humans = {h.key for h in readings.humans()}
    per_unit: dict[str, list[Label | str]] = defaultdict(list)
    per_unit_humans: dict[str, list[Label | str]] = defaultdict(list)
    for (unit_key, rater), value in readings.values.items():
        if rater != "gold":
            per_unit[unit_key].append(value)
        if rater in humans:
            per_unit_humans[unit_key].append(value)
    out: dict[int, Dispute] = {}
    for unit in readings.units:
        overall = _split(per_unit.get(unit.key, []))
        if overall <= 0:
            continue
        labels = per_unit_humans.get(unit.key, [])
        human = _split(labels)
        unanimous = len(labels) >= 2 and human == 0
        before = out.get(unit.item_id)
        if before is None:
            out[unit.item_id] = Dispute(human, overall, unanimous)
        else:
            out[unit.item_id] = Dispute(
                max(before.humans, human),
                max(before.overall, overall),
                before.unanimous and unanimous,
            )
    return out
