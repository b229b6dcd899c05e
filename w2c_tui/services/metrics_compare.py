"""`w2c metrics --compare A B`: two models, or two runs, on the same items, as a paired
difference of every When2Call metric with its interval.

A side is a rater key, optionally with `@target-model` (a judge's readings of one model's
responses; a log-prob run's readings of its model). The two sides are paired by item: the
items where both have a unit with a reference (gold, or the human consensus). Each side's
metrics and their difference are bootstrapped over those items with the same draws
(stats.metric_intervals), so the difference's interval is paired.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from w2c_tui.domain.errors import NotFoundError, W2CError
from w2c_tui.domain.labels import InvalidMode, Label
from w2c_tui.services.readings import INVALID, Readings, Unit
from w2c_tui.stats.metric_intervals import (
    IntervalSettings,
    intervals,
    metric_columns,
    metric_statistics,
    paired_statistics,
)
from w2c_tui.stats.metrics import INVALID as INVALID_CODE
from w2c_tui.stats.metrics import MISSING as MISSING_CODE
from w2c_tui.stats.results import Estimate
from w2c_tui.stats.sufficient import Statistic


def code(value: Label | str | None) -> int:
    """A reading as a metrics code (0..3, INVALID, MISSING)."""
    if value is None:
        return MISSING_CODE
    if value == INVALID:
        return INVALID_CODE
    assert isinstance(value, Label)
    return value.option


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a rater and, where it reads several, one target model."""

    rater: str
    target_model: str | None

    @classmethod
    def parse(cls, text: str) -> Side:
        """`rater` or `rater@target-model`."""
        rater, sep, model = text.partition("@")
        if not rater or (sep and not model):
            raise W2CError(f"--compare: {text!r} is not RATER or RATER@TARGET-MODEL")
        return cls(rater, model or None)

    @property
    def name(self) -> str:
        return self.rater + (f"@{self.target_model}" if self.target_model else "")


@dataclass(frozen=True)
class Comparison:
    """Both sides' metrics and their paired difference (a − b) on the shared items."""

    a: Side
    b: Side
    n_items: int
    settings: IntervalSettings
    metrics: dict[str, tuple[Estimate, Estimate, Estimate]]

    def as_json(self) -> dict[str, object]:
        """The `w2c metrics --compare --json` document."""
        return {
            "a": {"rater": self.a.rater, "target_model": self.a.target_model},
            "b": {"rater": self.b.rater, "target_model": self.b.target_model},
            "n_items": self.n_items,
            "bootstrap": {
                "B": self.settings.B,
                "seed": self.settings.seed,
                "level": self.settings.level,
            },
            "metrics": {
                name: {"a": a.as_json(), "b": b.as_json(), "difference": d.as_json()}
                for name, (a, b, d) in self.metrics.items()
            },
        }


def _units(readings: Readings, side: Side, ref: Mapping[str, Label]) -> dict[int, Unit]:
    """item id → the side's unit with a reference; refuses an unknown rater or model, and a
    rater that reads several models when no model is named."""
    known = {r.key for r in readings.raters}
    if side.rater not in known:
        raise NotFoundError(
            f"--compare: no rater {side.rater!r} (raters: {', '.join(sorted(known)) or 'none'})"
        )
    rated = {u.key for u in readings.units if (u.key, side.rater) in readings.values}
    models = sorted({u.target_model or "" for u in readings.units if u.key in rated})
    model = side.target_model
    if model is None and len(models) > 1:
        raise W2CError(
            f"--compare: {side.rater} reads {len(models)} target models; name one as "
            f"{side.rater}@MODEL ({', '.join(models)})"
        )
    if model is not None and model not in models:
        raise NotFoundError(
            f"--compare: {side.rater} has no readings of target model {model!r} "
            f"(it has: {', '.join(m for m in models if m) or 'none'})"
        )
    return {
        u.item_id: u
        for u in readings.units
        if u.key in ref and (model is None or u.target_model == model)
    }


def compare(
    readings: Readings,
    ref: Mapping[str, Label],
    a: Side,
    b: Side,
    *,
    invalid_mode: InvalidMode,
    settings: IntervalSettings,
) -> Comparison:
    """Pair the sides by item and bootstrap both and their difference with the same draws."""
    if a == b:
        raise W2CError("--compare: the two sides are the same")
    ua, ub = _units(readings, a, ref), _units(readings, b, ref)
    items = sorted(set(ua) & set(ub))
    if not items:
        raise W2CError(
            f"--compare: {a.name} and {b.name} share no item with a reference "
            "(gold or the human consensus)"
        )
    stats: dict[str, dict[str, Statistic]] = {}
    for tag, side, units in (("a", a, ua), ("b", b, ub)):
        chosen = [units[i] for i in items]
        gold = [ref[u.key].option for u in chosen]
        pred = [code(readings.values.get((u.key, side.rater))) for u in chosen]
        cols = metric_columns(
            gold, pred, no_tools=[u.n_tools == 0 for u in chosen], invalid_mode=invalid_mode
        )
        stats[tag] = metric_statistics(cols, norm=False)
    diff = paired_statistics(stats["a"], stats["b"])
    flat = {
        f"{tag}.{k}": s for tag, group in (*stats.items(), ("d", diff)) for k, s in group.items()
    }
    est = intervals(flat, settings)
    return Comparison(
        a=a,
        b=b,
        n_items=len(items),
        settings=settings,
        metrics={k: (est[f"a.{k}"], est[f"b.{k}"], est[f"d.{k}"]) for k in diff},
    )
