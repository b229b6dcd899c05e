"""Judge-corrected macro-F1: a plug-in of PPI++-corrected per-class means, bootstrapped.

Macro-F1 is not a mean, but each class's F1 is a function of three means:

    F1ₖ = 2·P(class = k, gold = k) / (P(class = k) + P(gold = k))

The first two are corrected with `ppi.ppi_mean_arrays` (each with its own power-tuned λ), the
third is known from every unit; an undefined F1ₖ (no unit of class k either way) counts 0, and
macro-F1 is the mean over the four classes. The interval is a percentile bootstrap that
resamples the labelled and the unlabelled units separately (λ re-tuned in every resample).

Every statistic here is a function of category counts (human × judge × gold on the labelled
units, judge × gold on the others), so a resample is a multinomial draw of counts, and a
bootstrap of 100,000 units costs what one of 100 does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.ppi import NO_UNLABELLED, NotDefinedError

K = 4
Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class F1Estimate:
    """A macro-F1 with its percentile interval and how its bootstrap variance splits."""

    value: float
    low: float
    high: float
    judge_var: float
    """Bootstrap variance with only the unlabelled units resampled."""
    label_var: float
    """Bootstrap variance with only the labelled units resampled."""


def _counts(codes: Any, size: int) -> Array:
    return np.bincount(np.asarray(codes, dtype=np.int64), minlength=size).astype(np.float64)


def _check(*arrays: Any) -> None:
    for arr in arrays:
        values = np.asarray(arr)
        if values.size and (values.min() < 0 or values.max() >= K):
            raise ValueError("class codes must lie in 0..3")


def _macro(f1_num: Array, f1_den: Array) -> Array:
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(f1_den > 0, 2 * f1_num / f1_den, 0.0)
    return np.asarray(f1.mean(-1), dtype=np.float64)


def _ppi_from_counts(lab: Array, unl: Array, fy: Array, fh: Array, fu: Array) -> Array:
    """PPI++ means of one indicator from counts: lab (…, 64), unl (…, 16); fy/fh the human
    and judge indicator per labelled category, fu the judge's per unlabelled category."""
    n = lab.sum(-1)
    big_n = unl.sum(-1)
    my, mh = lab @ fy / n, lab @ fh / n
    cov = lab @ (fy * fh) / n - my * mh
    total = n + big_n
    s1 = lab @ fh + unl @ fu  # indicators: the sum of squares is the sum
    var = (s1 - s1**2 / total) / (total - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.clip(np.where(var > 0, cov / ((1 + n / big_n) * var), 0.0), 0.0, 1.0)
    return np.asarray(lam * (unl @ fu) / big_n + my - lam * mh, dtype=np.float64)


def _indicators() -> tuple[Array, Array, Array, Array, Array, Array, Array, Array]:
    """Per class (rows): human/judge indicators of class=k∧gold=k and class=k on the 64
    labelled categories (h·16 + j·4 + g), the judge's on the 16 unlabelled ones (j·4 + g),
    and gold=k on both."""
    h, j, g = np.arange(64) // 16, np.arange(64) // 4 % 4, np.arange(64) % 4
    ju, gu = np.arange(16) // 4, np.arange(16) % 4
    ks = np.arange(K)[:, None]
    f = np.float64
    return (
        ((h == ks) & (g == ks)).astype(f),
        ((j == ks) & (g == ks)).astype(f),
        ((ju == ks) & (gu == ks)).astype(f),
        (h == ks).astype(f),
        (j == ks).astype(f),
        (ju == ks).astype(f),
        (g == ks).astype(f),
        (gu == ks).astype(f),
    )


def corrected_macro_f1(lab: Array, unl: Array) -> Array:
    """Macro-F1 from labelled (…, 64) and unlabelled (…, 16) category counts."""
    yt, ht, ut, yc, hc, uc, gl, gu = _indicators()
    tp = np.stack([_ppi_from_counts(lab, unl, yt[k], ht[k], ut[k]) for k in range(K)], -1)
    cls = np.stack([_ppi_from_counts(lab, unl, yc[k], hc[k], uc[k]) for k in range(K)], -1)
    gold = (lab @ gl.T + unl @ gu.T) / (lab.sum(-1) + unl.sum(-1))[..., None]
    return _macro(tp, cls + gold)


def plain_macro_f1(counts: Array) -> Array:
    """Macro-F1 of one rater from (…, 16) counts of class·4 + gold."""
    c = counts.reshape(*counts.shape[:-1], K, K)  # [class, gold]
    tp = np.diagonal(c, axis1=-2, axis2=-1)
    return _macro(tp, c.sum(-1) + c.sum(-2))


def ppi_macro_f1(
    human: Any,
    judge: Any,
    gold: Any,
    judge_unlabelled: Any,
    gold_unlabelled: Any,
    *,
    seed: int,
    bootstrap: int = 2000,
    alpha: float = 0.05,
) -> F1Estimate:
    """Corrected macro-F1 (labelled: human, judge and gold codes; unlabelled: judge and gold)."""
    _check(human, judge, gold, judge_unlabelled, gold_unlabelled)
    h, j, g = (np.asarray(a, dtype=np.int64) for a in (human, judge, gold))
    if h.size < 2:
        raise NotDefinedError(f"not defined because {h.size} labelled unit(s) (needs 2)")
    if len(judge_unlabelled) == 0:
        raise NotDefinedError(NO_UNLABELLED)
    lab = _counts(h * 16 + j * 4 + g, 64)
    unl = _counts(np.asarray(judge_unlabelled) * 4 + np.asarray(gold_unlabelled), 16)
    value = float(corrected_macro_f1(lab, unl))
    rng = np.random.default_rng(seed)
    n, big_n = int(lab.sum()), int(unl.sum())
    lab_b = rng.multinomial(n, lab / n, size=bootstrap).astype(np.float64)
    unl_b = rng.multinomial(big_n, unl / big_n, size=bootstrap).astype(np.float64)
    both = corrected_macro_f1(lab_b, unl_b)
    lo, hi = np.quantile(both, [alpha / 2, 1 - alpha / 2])
    judge_var = float(corrected_macro_f1(np.broadcast_to(lab, lab_b.shape), unl_b).var())
    label_var = float(corrected_macro_f1(lab_b, np.broadcast_to(unl, unl_b.shape)).var())
    return F1Estimate(value, float(lo), float(hi), judge_var, label_var)


def bootstrap_macro_f1(
    pred: Any, gold: Any, *, seed: int, bootstrap: int = 2000, alpha: float = 0.05
) -> tuple[float, float, float]:
    """(macro-F1, low, high) of one rater's classes against gold, percentile bootstrap."""
    _check(pred, gold)
    p = np.asarray(pred, dtype=np.int64)
    if p.size < 2:
        raise NotDefinedError(f"not defined because {p.size} unit(s) (needs 2)")
    counts = _counts(p * 4 + np.asarray(gold, dtype=np.int64), 16)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(p.size, counts / p.size, size=bootstrap).astype(np.float64)
    lo, hi = np.quantile(plain_macro_f1(draws), [alpha / 2, 1 - alpha / 2])
    return float(plain_macro_f1(counts)), float(lo), float(hi)


def f1_labels_to_halve(estimate: F1Estimate, n: int) -> int | None:
    """Labelled units (in all) that would halve the interval, from the bootstrap's variance
    split (the labelled part shrinks as 1/n); None when the judge's part dominates."""
    target = (estimate.judge_var + estimate.label_var) / 4 - estimate.judge_var
    if target <= 0 or estimate.label_var <= 0:
        return None
    return max(n + 1, int(np.ceil(estimate.label_var * n / target)))
