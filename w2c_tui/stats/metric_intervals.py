"""Every When2Call metric with a bootstrap interval over items, from one set of draws.

Each metric of ``stats.metrics.compute_metrics`` is a function of column totals of per-unit
0/1 indicators (``sufficient.Statistic``): accuracy = Σ correct / Σ scored, a rate = Σ hits /
Σ eligible, a class's F1 = 2·TP / (support + predicted), a macro-F1 the mean of those over its
labels. The point value (unit weights) is therefore the one ``compute_metrics`` gives, and every
bootstrap resample (``resample.bootstrap``: one W @ S per batch) uses the same formula, so all
metrics of one rater share the same resamples, and a paired difference of two raters (or two
models under one rater) is resampled over the same items.

A statistic whose denominator has fewer than ``MIN_UNITS`` units is "too few units (n=…)":
no value, no interval (see ``results.too_few``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from w2c_tui.domain.dashboard_core import MIN_UNITS
from w2c_tui.domain.labels import InvalidMode
from w2c_tui.stats.metrics import (
    CANNOT_ANSWER,
    DIRECT,
    LABEL_NAMES,
    N_LABELS,
    REQUEST_FOR_INFO,
    TOOL_CALL,
    Codes,
    IntArray,
    as_codes,
)
from w2c_tui.stats.resample import bootstrap as run_bootstrap
from w2c_tui.stats.resample import check_bootstrap_args, estimate
from w2c_tui.stats.results import Estimate, too_few
from w2c_tui.stats.sufficient import FloatArray, Guard, Statistic, Status, difference

NONE_SCORED = "no unit is scored (every reading is missing or invalid)"

# Column layout of the per-unit indicator matrix (one row per unit).
_SCORED, _NONMISSING, _INVALID = 0, 1, 2
_SUPPORT = 3  # 4 columns: gold k on a scored unit
_PRED = _SUPPORT + N_LABELS  # 4: a valid prediction k on a scored unit
_TP = _PRED + N_LABELS  # 4: prediction k == gold k
_NORM_PRED = _TP + N_LABELS  # 4: the length-normalised reading (zeros without one)
_NORM_TP = _NORM_PRED + N_LABELS  # 4
_TOOL_DEN, _TOOL_NUM = _NORM_TP + N_LABELS, _NORM_TP + N_LABELS + 1
_ANSWER_NUM = _TOOL_NUM + 1
_PARAM_DEN, _PARAM_NUM = _ANSWER_NUM + 1, _ANSWER_NUM + 2
_WIDTH = _PARAM_NUM + 1
_placeholder = np.zeros((0, _WIDTH))  # statistics get their columns in metric_statistics

MACROS: Final[Mapping[str, tuple[int, ...] | None]] = {
    "macro_f1_ref": None,  # the labels in gold ∪ predictions (reference-compatible)
    "macro_f1_4": tuple(range(N_LABELS)),
    "macro_f1_no_direct": tuple(range(1, N_LABELS)),
}
RATES: Final[Mapping[str, tuple[int, int]]] = {
    "tool_hallucination": (_TOOL_NUM, _TOOL_DEN),
    "answer_hallucination": (_ANSWER_NUM, _SCORED),
    "parameter_hallucination": (_PARAM_NUM, _PARAM_DEN),
    "invalid_rate": (_INVALID, _NONMISSING),
}


def metric_columns(
    gold: Codes,
    pred: Codes,
    *,
    no_tools: Sequence[bool] | npt.NDArray[np.bool_],
    pred_norm: Codes | None = None,
    invalid_mode: InvalidMode = InvalidMode.MISSING,
) -> FloatArray:
    """The (units × 31) indicator matrix behind every metric (inputs as ``compute_metrics``)."""
    g = as_codes(gold, name="gold", states=False)
    p = as_codes(pred, name="pred", states=True)
    absent = np.asarray(no_tools, dtype=bool)
    if not len(g) == len(p) == len(absent):
        raise ValueError("gold, pred and no_tools must have the same length")
    valid, invalid = p >= 0, p == -1
    scored = valid | invalid if InvalidMode(invalid_mode) is InvalidMode.WRONG else valid
    cols = np.zeros((len(g), _WIDTH))
    cols[:, _SCORED] = scored
    cols[:, _NONMISSING] = p != -2
    cols[:, _INVALID] = invalid
    _one_hot(cols, _SUPPORT, g, scored)
    _one_hot(cols, _PRED, p, scored & valid)
    _one_hot(cols, _TP, p, scored & valid & (p == g))
    if pred_norm is not None:
        pn = as_codes(pred_norm, name="pred_norm", states=True)
        if len(pn) != len(p):
            raise ValueError("pred_norm must have pred's length")
        _one_hot(cols, _NORM_PRED, pn, scored & (pn >= 0))
        _one_hot(cols, _NORM_TP, pn, scored & (pn >= 0) & (pn == g))
    refusal = scored & (g == CANNOT_ANSWER) & absent
    cols[:, _TOOL_DEN] = refusal
    cols[:, _TOOL_NUM] = refusal & (p == TOOL_CALL)
    cols[:, _ANSWER_NUM] = scored & (p == DIRECT) & (g != DIRECT)
    rfi = scored & (g == REQUEST_FOR_INFO)
    cols[:, _PARAM_DEN] = rfi
    cols[:, _PARAM_NUM] = rfi & (p == TOOL_CALL)
    return cols


def _one_hot(cols: FloatArray, start: int, codes: IntArray, where: npt.NDArray[np.bool_]) -> None:
    rows = np.flatnonzero(where)
    cols[rows, start + codes[rows]] = 1.0


def _count(t: FloatArray, col: int) -> int:
    return round(float(t[0, col]))


def _f1(t: FloatArray, pred: int, tp: int) -> tuple[FloatArray, FloatArray]:
    """Per-class F1 (B × 4) and its denominators; 0 where the denominator is 0."""
    support = t[:, _SUPPORT : _SUPPORT + N_LABELS]
    den = support + t[:, pred : pred + N_LABELS]
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(den > 0, 2.0 * t[:, tp : tp + N_LABELS] / den, 0.0)
    return f1, den


def _ratio(num: int, den: int, reason: str) -> Statistic:
    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        g = Guard(t.shape[0])
        g.flag(t[:, den] <= 0, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return g.finish(t[:, num] / t[:, den])

    return Statistic(_placeholder, reduce, (reason,), 0)


def _macro(labels: tuple[int, ...] | None, pred: int, tp: int) -> Statistic:
    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        f1, den = _f1(t, pred, tp)
        g = Guard(t.shape[0])
        g.flag(t[:, _SCORED] <= 0, 1)
        if labels is None:  # the labels present in gold or predictions of this resample
            present = den > 0
            with np.errstate(divide="ignore", invalid="ignore"):
                return g.finish((f1 * present).sum(axis=1) / present.sum(axis=1))
        return g.finish(f1[:, list(labels)].mean(axis=1))

    return Statistic(_placeholder, reduce, (NONE_SCORED,), 0)


def _class_f1(k: int) -> Statistic:
    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        f1, den = _f1(t, _PRED, _TP)
        g = Guard(t.shape[0])
        g.flag(den[:, k] <= 0, 1)
        return g.finish(f1[:, k])

    why = f"{LABEL_NAMES[k]!r} is neither gold nor predicted on a scored unit"
    return Statistic(_placeholder, reduce, (why,), 0)


def metric_statistics(cols: FloatArray, *, norm: bool) -> dict[str, Statistic]:
    """Every metric over the units of ``cols`` (``metric_columns``), by its name in
    ``Metrics``; ``norm``: also Acc-Norm and the normalised reading's macro-F1."""
    totals = cols.sum(axis=0, keepdims=True)
    scored = _count(totals, _SCORED)
    specs: dict[str, tuple[Statistic, int]] = {"accuracy": (_sum_ratio(_TP), scored)}
    if norm:
        specs["accuracy_norm"] = (_sum_ratio(_NORM_TP), scored)
    for name, labels in MACROS.items():
        specs[name] = (_macro(labels, _PRED, _TP), scored)
    if norm:
        specs["macro_f1_ref_norm"] = (_macro(None, _NORM_PRED, _NORM_TP), scored)
    for k, label in enumerate(LABEL_NAMES):
        specs[f"f1_{label}"] = (_class_f1(k), scored)
    for name, (num, den) in RATES.items():
        why = "no unit is eligible" if name != "invalid_rate" else "every reading is missing"
        specs[name] = (_ratio(num, den, why), _count(totals, den))
    return {
        name: Statistic(cols, stat.reduce, stat.reasons, n) for name, (stat, n) in specs.items()
    }


def _sum_ratio(start: int) -> Statistic:
    """Σ of four per-class columns (the correct units) over the scored units."""

    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        g = Guard(t.shape[0])
        g.flag(t[:, _SCORED] <= 0, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return g.finish(t[:, start : start + N_LABELS].sum(axis=1) / t[:, _SCORED])

    return Statistic(_placeholder, reduce, (NONE_SCORED,), 0)


@dataclass(frozen=True)
class IntervalSettings:
    """The resampling behind every metric interval."""

    B: int = 1000
    seed: int = 0
    level: float = 0.95

    def __post_init__(self) -> None:
        check_bootstrap_args(self.B, self.level)


def intervals(
    statistics: Mapping[str, Statistic], settings: IntervalSettings
) -> dict[str, Estimate]:
    """Each statistic's value and percentile interval, all from the same resamples; a
    statistic on fewer than MIN_UNITS units is ``too_few`` instead."""
    enough = {k: s for k, s in statistics.items() if s.n >= MIN_UNITS}
    reps = (
        run_bootstrap(enough, B=settings.B, seed=settings.seed) if settings.B and enough else None
    )
    out: dict[str, Estimate] = {}
    for name, stat in statistics.items():
        if name not in enough:
            out[name] = too_few(stat.n)
        else:
            out[name] = estimate(stat, reps[name] if reps else None, settings.level)
    return out


def paired_statistics(
    a: Mapping[str, Statistic], b: Mapping[str, Statistic]
) -> dict[str, Statistic]:
    """a − b for every metric both have (their units must be the same items, in order)."""
    return {name: difference(a[name], b[name]) for name in a if name in b}
