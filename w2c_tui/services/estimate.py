"""Judge-corrected scores: a target model's When2Call metric from a judge's verdicts on all its
responses, corrected by the human reference on the labelled ones (prediction-powered
inference, stats.ppi), beside the judge alone and the humans alone.

Labelled units have a human reference (consensus.consensus: an adjudication, else the
majority of at least `min_humans`) and a valid judge verdict; unlabelled units have a valid
judge verdict and no human reference. A unit whose judge verdict is invalid is in neither set
and is counted as `n_invalid`; a unit the judge never read, or without gold, is not counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import NotFoundError, W2CError
from w2c_tui.domain.estimate import METHODS, CorrectedDoc, EstimateMetric, IntervalDoc
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
from w2c_tui.stats.ppi import NotDefinedError, classical_mean, labels_to_halve, ppi_mean
from w2c_tui.stats.ppi_f1 import bootstrap_macro_f1, f1_labels_to_halve, ppi_macro_f1

Codes = npt.NDArray[np.int64]
DIRECT, TOOL_CALL, RFI, CANNOT = (
    label.option
    for label in (Label.DIRECT, Label.TOOL_CALL, Label.REQUEST_FOR_INFO, Label.CANNOT_ANSWER)
)
CANNOT_HALVE = "cannot be halved by labels alone: the judge-only term dominates the variance"


def _indicator(metric: EstimateMetric) -> Callable[[Codes, Codes], Codes]:
    """The metric's per-unit indicator of (class, gold)."""
    if metric is EstimateMetric.ACCURACY:
        return lambda c, g: (c == g).astype(np.int64)
    if metric is EstimateMetric.ANSWER_HALLUCINATION:
        return lambda c, g: ((c == DIRECT) & (g != DIRECT)).astype(np.int64)
    return lambda c, g: (c == TOOL_CALL).astype(np.int64)


def in_population(metric: EstimateMetric, unit: Unit) -> bool:
    """The units a metric averages over: tool hallucination over cannot-answer units that
    offer no tools, parameter hallucination over request-for-info units, the rest over all."""
    if unit.gold is None:
        return False
    if metric is EstimateMetric.TOOL_HALLUCINATION:
        return unit.gold is Label.CANNOT_ANSWER and unit.n_tools == 0
    if metric is EstimateMetric.PARAMETER_HALLUCINATION:
        return unit.gold is Label.REQUEST_FOR_INFO
    return True


@dataclass(frozen=True, slots=True)
class Sets:
    """The class codes of the labelled and unlabelled units, and the invalid count."""

    human: Codes
    judge: Codes
    gold: Codes
    judge_u: Codes
    gold_u: Codes
    n_invalid: int


def split(
    readings: Readings, reference: dict[str, Label], judge: str, model: str, metric: EstimateMetric
) -> Sets:
    """The metric's units of `model`, split by whether a human reference exists."""
    lab: list[tuple[int, int, int]] = []
    unl: list[tuple[int, int]] = []
    invalid = 0
    for unit in readings.units:
        if unit.target_model != model or not in_population(metric, unit):
            continue
        value = readings.values.get((unit.key, judge))
        if value == INVALID:
            invalid += 1
        if not isinstance(value, Label):
            continue
        assert unit.gold is not None
        human = reference.get(unit.key)
        if human is None:
            unl.append((value.option, unit.gold.option))
        else:
            lab.append((human.option, value.option, unit.gold.option))
    a = np.array(lab, dtype=np.int64).reshape(-1, 3)
    b = np.array(unl, dtype=np.int64).reshape(-1, 2)
    return Sets(a[:, 0], a[:, 1], a[:, 2], b[:, 0], b[:, 1], invalid)


Triple = tuple[IntervalDoc, IntervalDoc, IntervalDoc, float | None, int | None, str]
"""(corrected, judge-only, humans-only, λ, labels to halve, why not)."""


def _interval(compute: Callable[[], tuple[float, float, float]], n: int) -> IntervalDoc:
    try:
        value, low, high = compute()
    except NotDefinedError as error:
        return IntervalDoc(value=error.value, ci=None, n=n, reason=str(error))
    return IntervalDoc(value=value, ci=(low, high), n=n)


def _plain(values: Codes) -> tuple[float, float, float]:
    m = classical_mean(values)
    return m.value, m.low, m.high


def corrected(sets: Sets, metric: EstimateMetric, *, seed: int, bootstrap: int) -> Triple:
    """The three estimates of one split, λ and how many labels would halve the interval."""
    if metric is EstimateMetric.MACRO_F1:
        return _macro_f1(sets, seed=seed, bootstrap=bootstrap)
    n, big_n = sets.human.size, sets.judge_u.size
    ind = _indicator(metric)
    y, yhat = ind(sets.human, sets.gold), ind(sets.judge, sets.gold)
    yu = ind(sets.judge_u, sets.gold_u)
    judge_all = np.concatenate([yhat, yu])
    judge_only = _interval(lambda: _plain(judge_all), n + big_n)
    humans_only = _interval(lambda: _plain(y), n)
    try:
        result = ppi_mean(y, yhat, yu)
    except NotDefinedError as error:
        undefined = IntervalDoc(error.value, None, n + big_n, str(error))
        return undefined, judge_only, humans_only, None, None, str(error)
    ci = result.interval
    main = IntervalDoc(value=ci.value, ci=(ci.low, ci.high), n=ci.n)
    halve = labels_to_halve(result)
    note = "" if halve is not None else CANNOT_HALVE
    return main, judge_only, humans_only, result.lam, halve, note


def _macro_f1(sets: Sets, *, seed: int, bootstrap: int) -> Triple:
    n, big_n = sets.human.size, sets.judge_u.size
    judge_all = np.concatenate([sets.judge, sets.judge_u])
    gold_all = np.concatenate([sets.gold, sets.gold_u])
    judge_only = _interval(
        lambda: bootstrap_macro_f1(judge_all, gold_all, seed=seed, bootstrap=bootstrap), n + big_n
    )
    humans_only = _interval(
        lambda: bootstrap_macro_f1(sets.human, sets.gold, seed=seed, bootstrap=bootstrap), n
    )
    try:
        f1 = ppi_macro_f1(
            sets.human,
            sets.judge,
            sets.gold,
            sets.judge_u,
            sets.gold_u,
            seed=seed,
            bootstrap=bootstrap,
        )
    except NotDefinedError as error:
        undefined = IntervalDoc(None, None, n + big_n, str(error))
        return undefined, judge_only, humans_only, None, None, str(error)
    main = IntervalDoc(value=f1.value, ci=(f1.low, f1.high), n=n + big_n)
    halve = f1_labels_to_halve(f1, n)
    return main, judge_only, humans_only, None, halve, "" if halve is not None else CANNOT_HALVE


def document(
    readings: Readings,
    reference: dict[str, Label],
    dataset: str,
    model: str,
    rater: RaterInfo,
    metric: EstimateMetric,
    min_humans: int,
    seed: int,
    bootstrap: int,
) -> CorrectedDoc:
    """The corrected-score document of one model, judge and metric."""
    sets = split(readings, reference, rater.key, model, metric)
    main, judge_only, humans_only, lam, halve, note = corrected(
        sets, metric, seed=seed, bootstrap=bootstrap
    )
    return CorrectedDoc(
        dataset=dataset,
        target_model=model,
        judge=rater.key,
        metric=metric,
        method=METHODS[metric.is_mean],
        corrected=main,
        judge_only=judge_only,
        humans_only=humans_only,
        n_labelled=int(sets.human.size),
        n_unlabelled=int(sets.judge_u.size),
        n_invalid=sets.n_invalid,
        lam=lam,
        labels_to_halve=halve,
        halve_note=note,
        min_humans=min_humans,
        seed=None if metric.is_mean else seed,
        bootstrap=None if metric.is_mean else bootstrap,
    )


class EstimateService:
    """Judge-corrected When2Call scores of target models."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def _readings(self, dataset: str) -> Readings:
        return stored_readings(self._store.ratings, dataset, UnitKind.BEHAVIOUR)

    @staticmethod
    def _judge(readings: Readings, judge: str) -> RaterInfo:
        automated = [
            r for r in readings.raters if r.kind is RaterKind.JUDGE and r.reading == "label"
        ]
        for rater in automated:
            if judge in (rater.key, rater.name) or rater.key == f"judge:{judge}":
                return rater
        names = ", ".join(r.key for r in automated) or "none"
        raise NotFoundError(f"no judge {judge!r} in this dataset (judges: {names})")

    def estimate(
        self,
        dataset: str,
        target_model: str,
        judge: str,
        metric: EstimateMetric,
        *,
        min_humans: int = 1,
        seed: int = 0,
        bootstrap: int = 2000,
    ) -> CorrectedDoc:
        """The corrected estimate of one model's metric as one judge sees it."""
        readings = self._readings(dataset)
        rater = self._judge(readings, judge)
        models = sorted({u.target_model for u in readings.units if u.target_model is not None})
        if target_model not in models:
            raise NotFoundError(
                f"no target model {target_model!r} in {dataset!r} "
                f"(models: {', '.join(models) or 'none'})"
            )
        reference = consensus(readings, min_humans).labels
        doc = document(
            readings, reference, dataset, target_model, rater, metric, min_humans, seed, bootstrap
        )
        if doc.n_labelled == 0:
            raise W2CError(
                f"no human reference on any of {target_model}'s responses judged by {rater.key}"
                f" ({metric.value}; {doc.n_unlabelled} judged without one)"
            )
        return doc

    def table(
        self, dataset: str, *, min_humans: int = 1, seed: int = 0, bootstrap: int = 1000
    ) -> list[CorrectedDoc]:
        """Every (target model, judge, metric) with at least one labelled unit."""
        readings = self._readings(dataset)
        judges = [r.key for r in readings.raters if r.kind is RaterKind.JUDGE]
        return corrected_table(
            readings, dataset, judges, min_humans=min_humans, seed=seed, bootstrap=bootstrap
        )


def corrected_table(
    readings: Readings,
    dataset: str,
    judges: list[str],
    *,
    min_humans: int,
    seed: int,
    bootstrap: int,
) -> list[CorrectedDoc]:
    """Per target model, judge (label readings of `judges`) and metric, the corrected-score
    document, where at least one unit is labelled (the dashboard's tab, the report)."""
    reference = consensus(readings, min_humans).labels
    raters = [r for r in readings.raters if r.key in judges and r.reading == "label"]
    models = sorted({u.target_model for u in readings.units if u.target_model is not None})
    out = []
    for model in models:
        for rater in raters:
            for metric in EstimateMetric:
                doc = document(
                    readings, reference, dataset, model, rater, metric, min_humans, seed, bootstrap
                )
                if doc.n_labelled:
                    out.append(doc)
    return out
