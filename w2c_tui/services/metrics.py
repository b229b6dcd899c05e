"""When2Call metrics for every rater of a dataset, against gold or against the human consensus."""

from __future__ import annotations

from typing import Any

import numpy as np

from w2c_tui.db.store import Store
from w2c_tui.domain.dashboard import Against, ReferenceDoc, SliceBy
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import InvalidMode, Label, RaterKind
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.consensus import consensus
from w2c_tui.services.metrics_compare import Comparison, Side, code, compare
from w2c_tui.services.rater_metrics import CalibrationResult, RaterMetrics, StabilityResult
from w2c_tui.services.readings import (
    RaterInfo,
    Readings,
    stored_readings,
)
from w2c_tui.services.slicing import slice_groups
from w2c_tui.stats.calibration import calibration, probabilities_from_loglikelihoods
from w2c_tui.stats.metric_intervals import (
    IntervalSettings,
    intervals,
    metric_columns,
    metric_statistics,
)
from w2c_tui.stats.metrics import compute_metrics
from w2c_tui.stats.stability import stability


def reference(readings: Readings, against: Against, min_humans: int) -> dict[str, Label]:
    """Unit → reference label (gold, or the human majority)."""
    if against is Against.GOLD:
        return {u.key: u.gold for u in readings.units if u.gold is not None}
    return consensus(readings, min_humans).labels


def rater_metrics(
    readings: Readings,
    rater: RaterInfo,
    against: Against,
    *,
    target_model: str | None = None,
    min_humans: int = 1,
    invalid_mode: InvalidMode = InvalidMode.MISSING,
    only: set[str] | None = None,
    settings: IntervalSettings | None = None,
) -> RaterMetrics | None:
    """Metrics of one rater on one target model's units that have a reference.

    A judge's reading of a model's responses scored against gold is that model's When2Call
    score as the judge sees it; so metrics are per target model (None: every unit pooled).
    `only` restricts the units (a slice). Returns None when no unit has both a reference and
    this rater's reading. With `settings`, every metric also gets its bootstrap interval
    (resampling the units that have a reference; see stats.metric_intervals).
    """
    ref = reference(readings, against, min_humans)
    units = [
        u
        for u in readings.units
        if u.key in ref
        and (target_model is None or u.target_model == target_model)
        and (only is None or u.key in only)
    ]
    if not any((u.key, rater.key) in readings.values for u in units):
        return None
    if not units:
        return None
    gold = [ref[u.key].option for u in units]
    pred = [code(readings.values.get((u.key, rater.key))) for u in units]
    norm_key = f"{rater.key}:norm"
    pred_norm = None
    if rater.kind is RaterKind.MCQ_LOGPROB and any(r.key == norm_key for r in readings.raters):
        # an invalid (or missing) reading has no normalised reading: it is invalid there too
        norm = [
            code(readings.values.get((u.key, norm_key))) if p >= 0 else p
            for u, p in zip(units, pred, strict=True)
        ]
        if all(n >= 0 for n, p in zip(norm, pred, strict=True) if p >= 0):
            pred_norm = norm
    no_tools = [u.n_tools == 0 for u in units]
    metrics = compute_metrics(
        gold, pred, no_tools=no_tools, pred_norm=pred_norm, invalid_mode=invalid_mode
    )
    estimates = None
    if settings is not None:
        cols = metric_columns(
            gold, pred, no_tools=no_tools, pred_norm=pred_norm, invalid_mode=invalid_mode
        )
        estimates = intervals(metric_statistics(cols, norm=pred_norm is not None), settings)
    return RaterMetrics(
        rater=rater,
        target_model=target_model,
        against=against,
        metrics=metrics,
        norm_reading=norm_key if pred_norm is not None else None,
        calibration=_calibration(readings, rater, units, gold),
        stability=_stability(readings, rater, units, gold),
        intervals=estimates,
        settings=settings,
    )


def _calibration(
    readings: Readings, rater: RaterInfo, units: list[Any], gold: list[int]
) -> CalibrationResult | None:
    rows = [
        (readings.loglikelihoods[(u.key, rater.key)], g)
        for u, g in zip(units, gold, strict=True)
        if (u.key, rater.key) in readings.loglikelihoods
    ]
    if len(rows) < 2 or rater.config.get("scoring"):
        return None  # scores that are not likelihoods (the API suite's) are not calibrated
    lls = np.array([r[0] for r in rows], dtype=float)
    labels = np.array([r[1] for r in rows])
    raw = calibration(probabilities_from_loglikelihoods(lls), labels)
    lengths = [
        readings.choice_lengths.get((u.key, rater.key))
        for u in units
        if (u.key, rater.key) in readings.loglikelihoods
    ]
    if not all(length is not None for length in lengths):
        return CalibrationResult(raw)
    probs = probabilities_from_loglikelihoods(lls, np.array(lengths, dtype=float))
    return CalibrationResult(raw, calibration(probs, labels))


def _stability(
    readings: Readings, rater: RaterInfo, units: list[Any], gold: list[int]
) -> StabilityResult | None:
    """Over the rater's own repeats where a run made them (`--repeats`), else over the repeated
    responses of the target model; `over` says which."""
    for source, over in ((readings.samples, "repeats"), (readings.series, "responses")):
        runs = [[code(v) for v in source.get((u.key, rater.key), [])] for u in units]
        if max((len(r) for r in runs), default=0) >= 2:
            return StabilityResult(stability(runs, gold), over)
    return None


def _settings(bootstrap: int | None, seed: int) -> IntervalSettings | None:
    return IntervalSettings(B=bootstrap, seed=seed) if bootstrap is not None else None


class MetricsService:
    """Metrics per rater for a dataset."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def readings(self, dataset: str, kind: UnitKind = UnitKind.BEHAVIOUR) -> Readings:
        """Every current verdict of the dataset arranged by unit and rater."""
        return stored_readings(self._store.ratings, dataset, kind)

    def reference(self, dataset: str, against: Against, min_humans: int = 1) -> ReferenceDoc:
        """How many units have a reference, and (against humans) how many came from
        adjudication rather than the majority."""
        readings = self.readings(dataset)
        if against is Against.GOLD:
            return ReferenceDoc(n=sum(1 for u in readings.units if u.gold is not None))
        return ReferenceDoc.of(consensus(readings, min_humans).as_json())

    @staticmethod
    def _chosen(readings: Readings, raters: list[str] | None, against: Against) -> list[RaterInfo]:
        """The raters asked for, or every label reading but gold (and humans vs humans)."""
        if raters:
            known = {r.key for r in readings.raters}
            unknown = [k for k in raters if k not in known]
            if unknown:
                raise NotFoundError(
                    f"no rater {unknown[0]!r} (raters: {', '.join(sorted(known)) or 'none'})"
                )
            return [readings.rater(k) for k in raters]
        return [
            r
            for r in readings.raters
            if r.kind is not RaterKind.GOLD
            and r.reading == "label"
            and not (against is Against.HUMANS and r.kind is RaterKind.HUMAN)
        ]

    def compare(
        self,
        dataset: str,
        a: str,
        b: str,
        *,
        against: Against = Against.GOLD,
        min_humans: int = 1,
        invalid_mode: InvalidMode = InvalidMode.MISSING,
        bootstrap: int = 1000,
        seed: int = 0,
    ) -> Comparison:
        """Two raters (or one rater on two target models, `rater@model`) on the same items:
        each side's metrics and the paired difference a − b with its interval."""
        readings = self.readings(dataset)
        return compare(
            readings,
            reference(readings, against, min_humans),
            Side.parse(a),
            Side.parse(b),
            invalid_mode=invalid_mode,
            settings=IntervalSettings(B=bootstrap, seed=seed),
        )

    def sliced(
        self,
        dataset: str,
        by: SliceBy,
        *,
        raters: list[str] | None = None,
        against: Against = Against.GOLD,
        min_humans: int = 1,
        invalid_mode: InvalidMode = InvalidMode.MISSING,
        bootstrap: int | None = None,
        seed: int = 0,
    ) -> list[tuple[str, int, list[RaterMetrics]]]:
        """Metrics on each slice of the units: (slice, its units, each rater's metrics)."""
        settings = _settings(bootstrap, seed)
        readings = self.readings(dataset)
        chosen = self._chosen(readings, raters, against)
        out = []
        for name, units in slice_groups(readings, by):
            rows = [
                row
                for rater in chosen
                if (
                    row := rater_metrics(
                        readings,
                        rater,
                        against,
                        min_humans=min_humans,
                        invalid_mode=invalid_mode,
                        only=units,
                        settings=settings,
                    )
                )
                is not None
            ]
            out.append((name, len(units), rows))
        return out

    def metrics(
        self,
        dataset: str,
        *,
        raters: list[str] | None = None,
        against: Against = Against.GOLD,
        min_humans: int = 1,
        invalid_mode: InvalidMode = InvalidMode.MISSING,
        bootstrap: int | None = None,
        seed: int = 0,
    ) -> list[RaterMetrics]:
        """Metrics of each rater (default: every rater but gold and the human reference);
        with `bootstrap` (B, 0: values and "too few" without intervals), each metric with
        its interval over items."""
        settings = _settings(bootstrap, seed)
        readings = self.readings(dataset)
        chosen = self._chosen(readings, raters, against)
        models: list[str | None] = [
            *sorted({u.target_model for u in readings.units if u.target_model is not None})
        ]
        out = []
        for rater in chosen:
            for model in models or [None]:
                result = rater_metrics(
                    readings,
                    rater,
                    against,
                    target_model=model,
                    min_humans=min_humans,
                    invalid_mode=invalid_mode,
                    settings=settings,
                )
                if result is not None:
                    out.append(result)
        return out
