"""Prediction-powered inference for a mean (PPI++, Angelopoulos, Duchi & Zrnic 2023).

A judge labels every unit; humans label a few. With Y the human indicator and Ŷ the judge's on
the n labelled units, and Ŷᵤ the judge's on the N unlabelled ones, the power-tuned estimate is

    θ̂ = λ·mean(Ŷᵤ) + mean(Y − λ·Ŷ),   se² = λ²·Var(Ŷᵤ)/N + Var(Y − λ·Ŷ)/n

with λ = Cov(Y, Ŷ) / ((1 + n/N)·Var(Ŷ ∪ Ŷᵤ)) clipped to [0, 1] (λ = 1 is plain PPI, λ = 0 the
humans alone) and the normal interval θ̂ ± z·se. The covariance is taken around the labelled
means (divided by n), the judge's variance over all its units (divided by n + N − 1), each
standard deviation divided by its count, as `ppi_py.ppi_mean_ci` does. Every function works
along the last axis, so many replays are one call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


NO_UNLABELLED = (
    "not defined because no unit has a judge verdict without a human one "
    "(every judged unit is labelled: the humans-only estimate is the answer)"
)


class NotDefinedError(ValueError):
    """An estimate or interval that the data cannot define; the message says why, and
    `value` holds the point estimate where only the interval is undefined."""

    def __init__(self, reason: str, value: float | None = None) -> None:
        super().__init__(reason)
        self.value = value


def z_value(alpha: float) -> float:
    """The two-sided normal quantile for a 1 − alpha interval."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    return NormalDist().inv_cdf(1 - alpha / 2)


@dataclass(frozen=True, slots=True)
class MeanInterval:
    """A mean, its normal interval and the number of units behind it."""

    value: float
    low: float
    high: float
    n: int

    @property
    def width(self) -> float:
        """high − low."""
        return self.high - self.low


@dataclass(frozen=True, slots=True)
class PPIMean:
    """A power-tuned PPI mean and the two parts of its variance."""

    interval: MeanInterval
    lam: float
    judge_var: float
    """λ²·Var(Ŷᵤ)/N: the part that more human labels cannot shrink."""
    label_var: float
    """Var(Y − λŶ)/n: the part that shrinks as 1/n."""
    n: int
    n_unlabelled: int


def power_tuned_lambda(y: Any, yhat: Any, yhat_unlabelled: Any) -> Array:
    """PPI++'s variance-minimising λ, clipped to [0, 1] (along the last axis).

    Where the judge's indicator never varies, λ is 0: the judge then says nothing about
    which unit is which, and the estimate is the humans' mean.
    """
    y, yhat, yu = _floats(y), _floats(yhat), _floats(yhat_unlabelled)
    n, big_n = y.shape[-1], yu.shape[-1]
    cov = ((y - y.mean(-1, keepdims=True)) * (yhat - yhat.mean(-1, keepdims=True))).mean(-1)
    pooled = np.concatenate([yhat, yu], axis=-1)
    var = pooled.var(-1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(var > 0, cov / ((1 + n / big_n) * var), 0.0)
    return np.asarray(np.clip(lam, 0.0, 1.0), dtype=np.float64)


def ppi_mean_arrays(
    y: Any, yhat: Any, yhat_unlabelled: Any, lam: Any = None
) -> tuple[Array, Array, Array, Array]:
    """(estimate, λ, judge variance, label variance) along the last axis, unchecked."""
    y, yhat, yu = _floats(y), _floats(yhat), _floats(yhat_unlabelled)
    n, big_n = y.shape[-1], yu.shape[-1]
    lam_arr = power_tuned_lambda(y, yhat, yu) if lam is None else np.asarray(lam, dtype=float)
    lam_k = lam_arr[..., None]
    estimate = lam_arr * yu.mean(-1) + (y - lam_k * yhat).mean(-1)
    judge_var = (lam_arr**2) * yu.var(-1) / big_n
    label_var = (y - lam_k * yhat).var(-1) / n
    return estimate, lam_arr, judge_var, label_var


def ppi_mean(
    y: Any, yhat: Any, yhat_unlabelled: Any, *, alpha: float = 0.05, lam: float | None = None
) -> PPIMean:
    """The power-tuned PPI mean of one sample with its 1 − alpha interval.

    Raises NotDefinedError with the reason when fewer than two units are labelled, none is
    unlabelled, the inputs differ in length, or no indicator varies (the interval would have
    width 0, which is not a statement about the population).
    """
    y, yhat, yu = _floats(y), _floats(yhat), _floats(yhat_unlabelled)
    if y.ndim != 1 or yhat.shape != y.shape or yu.ndim != 1:
        raise ValueError("Y and Yhat must be one-dimensional and of the same length")
    n, big_n = y.size, yu.size
    if n < 2:
        raise NotDefinedError(
            f"not defined because {n} labelled unit(s) cannot show how the judge errs "
            "(needs at least 2)"
        )
    if big_n == 0:
        raise NotDefinedError(NO_UNLABELLED)
    estimate, lam_arr, judge_var, label_var = ppi_mean_arrays(y, yhat, yu, lam)
    se = math.sqrt(float(judge_var) + float(label_var))
    if se == 0:
        raise NotDefinedError(
            "interval not defined because the estimated variance is 0 (the judge's errors on "
            "the labelled units and its verdicts on the unlabelled ones never vary): a normal "
            "interval would have width 0",
            float(estimate),
        )
    return PPIMean(
        interval=_normal(float(estimate), se, alpha, n + big_n),
        lam=float(lam_arr),
        judge_var=float(judge_var),
        label_var=float(label_var),
        n=n,
        n_unlabelled=big_n,
    )


def classical_mean(y: Any, *, alpha: float = 0.05) -> MeanInterval:
    """The plain mean with its normal interval (population standard deviation / √n), as
    `ppi_py.classical_mean_ci`; NotDefinedError when n < 2 or the values never vary."""
    y = _floats(y)
    if y.ndim != 1:
        raise ValueError("Y must be one-dimensional")
    if y.size < 2:
        raise NotDefinedError(f"not defined because {y.size} unit(s) give no spread (needs 2)")
    se = float(y.std()) / math.sqrt(y.size)
    if se == 0:
        raise NotDefinedError(
            "interval not defined because every unit scores the same: a normal interval would "
            "have width 0",
            float(y.mean()),
        )
    return _normal(float(y.mean()), se, alpha, int(y.size))


def labels_to_halve(result: PPIMean) -> int | None:
    """How many labelled units (in all) would halve the interval, λ and the judge's part
    held fixed; None when the judge's part alone is more than a quarter of the variance:
    then the width cannot be halved by labels alone."""
    target = (result.judge_var + result.label_var) / 4 - result.judge_var
    if target <= 0 or result.label_var <= 0:
        return None
    return max(result.n + 1, math.ceil(result.label_var * result.n / target))


def _normal(value: float, se: float, alpha: float, n: int) -> MeanInterval:
    half = z_value(alpha) * se
    return MeanInterval(value=value, low=value - half, high=value + half, n=n)


def _floats(values: Any) -> Array:
    return np.asarray(values, dtype=np.float64)
