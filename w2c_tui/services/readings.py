"""Turning stored verdicts into raters' readings of units (the input of agreement and metrics).

A unit is an (item, target model) pair for behaviour labels, or an item for item QA. Human and
judge verdicts read a response: when a model answered an item several times, the most recent
response is the one that counts. A log-prob MCQ scorer gives two readings (raw and
length-normalised argmax). Invalid verdicts are kept apart from labels: `INVALID` here, and the
caller decides whether they count as missing or as always wrong.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from w2c_tui.db.ratings import RatingQueries
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import ItemFacts, Rater, Rating
from w2c_tui.domain.review import UnitKind

INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class RaterInfo:
    """A reading source in the agreement matrix."""

    key: str
    kind: RaterKind
    name: str
    reading: str = "label"
    config: dict[str, object] = field(default_factory=dict)

    @property
    def automated(self) -> bool:
        """Judges and scorers (not humans, not gold)."""
        return self.kind not in (RaterKind.HUMAN, RaterKind.GOLD)


@dataclass(frozen=True, slots=True)
class Unit:
    """One thing raters label."""

    key: str
    item_id: int
    item_uuid: str
    position: int
    target_model: str | None
    gold: Label | None
    n_tools: int
    source: str | None = None


@dataclass
class Readings:
    """units × raters → Label | INVALID (absent = missing), plus log-likelihoods where known."""

    kind: UnitKind
    units: list[Unit]
    raters: list[RaterInfo]
    values: dict[tuple[str, str], Label | str] = field(default_factory=dict)
    loglikelihoods: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    choice_lengths: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    series: dict[tuple[str, str], list[Label | str]] = field(default_factory=dict)
    """Every response's reading, oldest first (for stability over repeated responses)."""
    samples: dict[tuple[str, str], list[Label | str]] = field(default_factory=dict)
    """The rater's own repeats (a run with --repeats): sample 0, 1, … of the current verdict."""
    adjudicated: dict[str, tuple[Label, str]] = field(default_factory=dict)
    """unit → (the adjudicated label, who decided): a reference that overrides the majority."""

    def rater(self, key: str) -> RaterInfo:
        """The rater with this key."""
        for rater in self.raters:
            if rater.key == key:
                return rater
        raise KeyError(key)

    def humans(self) -> list[RaterInfo]:
        """The human raters."""
        return [r for r in self.raters if r.kind is RaterKind.HUMAN]

    def automated(self) -> list[RaterInfo]:
        """Judges and scorers."""
        return [r for r in self.raters if r.automated]

    def label(self, unit: str, rater: str) -> Label | None:
        """A valid label, or None (missing or invalid)."""
        value = self.values.get((unit, rater))
        return value if isinstance(value, Label) else None


def rater_key(rater: Rater, names: Counter[tuple[str, str]]) -> str:
    """`kind:name`, with the rater id when two raters share kind and name (other config)."""
    prefix = {
        RaterKind.HUMAN: "human",
        RaterKind.JUDGE: "judge",
        RaterKind.MCQ_LOGPROB: "logprob",
        RaterKind.MCQ_INDEX: "mcq-index",
        RaterKind.GOLD: "gold",
        RaterKind.ADJUDICATOR: "adjudicator",
    }[rater.kind]
    key = f"{prefix}:{rater.name}"
    if names[(rater.kind.value, rater.name)] > 1:
        key += f"#{rater.id}"
    return key


def build_readings(
    items: list[ItemFacts], ratings: list[Rating], kind: UnitKind, *, include_gold: bool = True
) -> Readings:
    """Arrange current verdicts by unit and rater."""
    by_item = {i.item_id: i for i in items}
    names = Counter((r.kind.value, r.name) for r in {x.rater.id: x.rater for x in ratings}.values())
    latest: dict[tuple[int, str | None], int] = {}
    decided: dict[str, Rating] = {}
    for rating in ratings:
        if rating.response_id is not None:
            key = (rating.item_id, rating.target_model)
            latest[key] = max(latest.get(key, rating.response_id), rating.response_id)
    units: dict[str, Unit] = {}
    raters: dict[str, RaterInfo] = {}
    readings = Readings(kind=kind, units=[], raters=[])
    for rating in ratings:
        item_level = rating.target_model is None
        if (kind is UnitKind.ITEM) != item_level:
            continue
        facts = by_item[rating.item_id]
        unit = _unit(facts, rating.target_model, units)
        base = rater_key(rating.rater, names)
        value = _value(rating.status, rating.label)
        if rating.response_id is not None and value is not None:
            readings.series.setdefault((unit.key, base), []).append(value)
        if (
            rating.response_id is not None
            and latest[(rating.item_id, rating.target_model)] != rating.response_id
        ):
            continue
        if rating.rater.kind is RaterKind.ADJUDICATOR:
            # the newest adjudication of a unit is its reference; adjudicators are not raters
            if isinstance(value, Label) and (
                unit.key not in decided or rating.created_at >= decided[unit.key].created_at
            ):
                decided[unit.key] = rating
                readings.adjudicated[unit.key] = (value, rating.rater.name)
            continue
        _add(readings, raters, unit, rating.rater, base, "label", value)
        if rating.repeats:
            again = [_value(status, label) for label, status in rating.repeats]
            readings.samples[(unit.key, base)] = [v for v in (value, *again) if v is not None]
        if rating.rater.kind is RaterKind.MCQ_LOGPROB:
            _add_logprob(readings, raters, unit, rating, base)
    if include_gold:
        gold = RaterInfo(key="gold", kind=RaterKind.GOLD, name="gold")
        if kind is UnitKind.ITEM:
            for facts in items:
                _unit(facts, None, units)
        for unit in units.values():
            if unit.gold is not None:
                raters.setdefault(gold.key, gold)
                readings.values[(unit.key, gold.key)] = unit.gold
    readings.units = sorted(units.values(), key=lambda u: (u.position, u.target_model or ""))
    order = {
        RaterKind.HUMAN: 0,
        RaterKind.JUDGE: 1,
        RaterKind.MCQ_LOGPROB: 2,
        RaterKind.MCQ_INDEX: 3,
        RaterKind.GOLD: 4,
        RaterKind.ADJUDICATOR: 5,
    }
    readings.raters = sorted(raters.values(), key=lambda r: (order[r.kind], r.key))
    return readings


def _unit(facts: ItemFacts, model: str | None, units: dict[str, Unit]) -> Unit:
    key = facts.uuid if model is None else f"{facts.uuid}@{model}"
    if key not in units:
        units[key] = Unit(
            key=key,
            item_id=facts.item_id,
            item_uuid=facts.uuid,
            position=facts.position,
            target_model=model,
            gold=facts.gold,
            n_tools=facts.n_tools,
            source=facts.source,
        )
    return units[key]


def _value(status: VerdictStatus, label: Label | None) -> Label | str | None:
    if status is VerdictStatus.INVALID:
        return INVALID
    if status is VerdictStatus.OK and label is not None:
        return label
    return None


def _add(
    readings: Readings,
    raters: dict[str, RaterInfo],
    unit: Unit,
    rater: Rater,
    key: str,
    reading: str,
    value: Label | str | None,
) -> None:
    raters.setdefault(
        key,
        RaterInfo(
            key=key, kind=rater.kind, name=rater.name, reading=reading, config=dict(rater.config)
        ),
    )
    if value is not None:
        readings.values[(unit.key, key)] = value


def _add_logprob(
    readings: Readings, raters: dict[str, RaterInfo], unit: Unit, rating: Rating, base: str
) -> None:
    scores = rating.scores
    lls = scores.get("loglikelihoods")
    if isinstance(lls, list) and len(lls) == 4 and rating.status is VerdictStatus.OK:
        readings.loglikelihoods[(unit.key, base)] = [float(v) for v in lls]
        lengths = scores.get("choice_lengths")
        if isinstance(lengths, list) and len(lengths) == 4:
            readings.choice_lengths[(unit.key, base)] = [int(v) for v in lengths]
    norm = scores.get("pred_norm") or scores.get("pred_norm_chars")
    if isinstance(norm, str) and rating.status is VerdictStatus.OK:
        try:
            label = Label.parse(norm)
        except ValueError:
            return
        _add(readings, raters, unit, rating.rater, f"{base}:norm", "norm", label)


def stored_readings(
    ratings: RatingQueries, dataset: str, kind: UnitKind, *, include_gold: bool = True
) -> Readings:
    """Every current verdict of `dataset` read from the store and arranged by unit and rater."""
    return build_readings(
        ratings.items(dataset), ratings.ratings(dataset), kind, include_gold=include_gold
    )
