"""What to label next: an order of the units by how much a label is expected to narrow the
interval of the judge's agreement with the humans, and an estimate that stays unbiased in
that order.

The quantity is θ = (1/N) Σ_i y_i, y_i = 1 when the judge's reading of unit i equals the
human reference (0 when it differs or is invalid). Before any label, each unit has a prior
f_i = P(y_i = 1) from the other automated readings of it (log-prob, MCQ-index, other judges,
the judge's own repeats): the share of them that agree with the judge, kept inside
[F_LOW, F_HIGH]; an invalid judge reading has f_i = 0 exactly (it can never agree).

Order (priority sampling, Duffield, Lund & Thorup 2007): each unit gets a weight
w_i = sqrt(f_i (1 − f_i)) — the spread of its residual y_i − f_i, i.e. what its label can
remove from the variance — divided by sqrt(size of its group of near-duplicates) so that
repeats of one question do not crowd the top, and floored at W_FLOOR (every unit keeps a
chance); w_i = 0 where y_i is known without a label. Priorities q_i = w_i / u_i with
u_i ~ U(0, 1] from a seeded generator; the queue is the units by decreasing q.

Estimate: the labelled units that open the queue are a priority sample with threshold τ
(the priority of the first unlabelled unit) and inclusion probabilities π_i = min(1, w_i/τ);
labelled units further down are taken as certain (π = 1). Then
    θ̂ = (1/N) [ Σ_i f_i + Σ_{i labelled} (y_i − f_i) / π_i ]
is unbiased whatever f is (a difference estimator with Horvitz–Thompson weights), and
    V̂ = (1/N²) Σ_{i labelled} (y_i − f_i)² (1 − π_i) / π_i²
is unbiased for its variance (priority-sampling estimates have zero covariance).
With few labels V̂ is noisy (the residuals are skewed: the normal interval on V̂ alone covered
92% at 40 labels in the simulation), so the variance used is a blend: what the readers'
agreement predicts, Σ f_i(1 − f_i)(1 − π_i)/π_i² over the labelled units, counted as
PRIOR_LABELS labels, and V̂, counted as the labels there are. The interval is θ̂ ± z·sqrt(V),
clipped to [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import Final

import numpy as np
import numpy.typing as npt

F_LOW: Final = 0.02
F_HIGH: Final = 0.98
W_FLOOR: Final = 0.05
MIX: Final = 0.5
PRIOR_LABELS: Final = 10
"""The variance starts from what the readers' agreement predicts, worth this many labels."""
MIN_LABELS: Final = 10
"""No decision rests on fewer labelled units than this."""

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def accuracy_from_agreement(agreement: float, classes: int = 4) -> float:
    """The accuracy r two independent raters must share to agree this often, when a wrong
    reading falls on any wrong class alike: r² + (1 − r)²/(c − 1) = agreement (r ≥ 1/c)."""
    c = float(classes)
    a = min(max(agreement, 1.0 / c), 1.0)
    # (c/(c-1)) r² − (2/(c-1)) r + 1/(c-1) − a = 0, the root above 1/c
    qa, qb, qc = c / (c - 1.0), -2.0 / (c - 1.0), 1.0 / (c - 1.0) - a
    return float((-qb + np.sqrt(max(qb * qb - 4.0 * qa * qc, 0.0))) / (2.0 * qa))


def prior(
    agree: npt.ArrayLike,
    others: npt.ArrayLike,
    invalid: npt.ArrayLike,
    accuracy: float,
    classes: int = 4,
) -> FloatArray:
    """f_i = P(the judge is right | k_i of its m_i other readings agree with it), every
    reading right with probability `accuracy` and wrong ones spread evenly over the other
    classes (so a wrong reading agrees with a wrong judge with probability (1 − r)/(c − 1));
    kept inside [F_LOW, F_HIGH]; 0 where the judge's reading is invalid."""
    k = np.asarray(agree, dtype=float)
    m = np.asarray(others, dtype=float)
    r = min(max(accuracy, 1e-6), 1.0 - 1e-6)
    same_wrong = (1.0 - r) / (classes - 1.0)
    log_right = np.log(r) + k * np.log(r) + (m - k) * np.log(1.0 - r)
    log_wrong = np.log(1.0 - r) + k * np.log(same_wrong) + (m - k) * np.log(1.0 - same_wrong)
    f = 1.0 / (1.0 + np.exp(log_wrong - log_right))
    f = np.clip(f, F_LOW, F_HIGH)
    return np.where(np.asarray(invalid, dtype=bool), 0.0, f)


def weights(f: npt.ArrayLike, group_sizes: npt.ArrayLike | None = None) -> FloatArray:
    """w_i (see the module): the residual's spread, shared within near-duplicate groups."""
    fv = np.asarray(f, dtype=float)
    w = np.sqrt(fv * (1.0 - fv))
    if group_sizes is not None:
        w = w / np.sqrt(np.maximum(np.asarray(group_sizes, dtype=float), 1.0))
    known = (fv <= 0.0) | (fv >= 1.0)
    if (~known).any():
        w = MIX * w + (1.0 - MIX) * float(w[~known].mean())
    return np.where(known, 0.0, np.maximum(w, W_FLOOR))


def priorities(w: npt.ArrayLike, seed: int) -> FloatArray:
    """q_i = w_i / u_i, u_i ~ U(0, 1] (seeded): the queue is the units by decreasing q."""
    wv = np.asarray(w, dtype=float)
    u = 1.0 - np.random.default_rng(seed).random(wv.shape[0])  # in (0, 1]
    return wv / u


def queue(q: npt.ArrayLike) -> npt.NDArray[np.intp]:
    """Unit positions by decreasing priority (ties by position)."""
    qv = np.asarray(q, dtype=float)
    return np.lexsort((np.arange(qv.shape[0]), -qv))


@dataclass(frozen=True)
class ActiveEstimate:
    """θ̂ with its interval, from the labels so far."""

    value: float | None
    ci: tuple[float, float] | None
    se: float | None
    n_labelled: int
    n_units: int
    n_prefix: int
    """Labelled units that open the queue (the priority sample); the rest count as certain."""


def _moments(
    f: FloatArray, z: FloatArray, pi: FloatArray, seen: BoolArray, design: BoolArray
) -> tuple[FloatArray, FloatArray]:
    """θ̂ and the variance (see the module) over the last axis; rows are label states.

    `pi`: each unit's inclusion probability under the design (1 for a certain unit);
    `seen`: labelled; `design`: not certain (the priority sample and the units still open).
    z is 0 where a unit is not seen."""
    n = f.shape[-1]
    safe = np.where(pi > 0.0, pi, 1.0)
    value = (f.sum() + (z / safe).sum(axis=-1)) / n
    observed = (z * z * (1.0 - safe) / (safe * safe)).sum(axis=-1)
    spread = np.where(pi > 0.0, f * (1.0 - f) * (1.0 - safe) / safe, 0.0)
    predicted = np.where(design, spread, 0.0).sum(axis=-1)
    k = (seen & design).sum(axis=-1).astype(float)
    var = (PRIOR_LABELS * predicted + k * observed) / (PRIOR_LABELS + k) / (n * n)
    return value, var


def _ci(value: float, var: float, level: float) -> tuple[float, float]:
    half = NormalDist().inv_cdf(0.5 + level / 2.0) * float(np.sqrt(max(var, 0.0)))
    return max(value - half, 0.0), min(value + half, 1.0)


def estimate(
    f: npt.ArrayLike,
    w: npt.ArrayLike,
    q: npt.ArrayLike,
    labelled: npt.ArrayLike,
    y: npt.ArrayLike,
    level: float = 0.95,
) -> ActiveEstimate:
    """θ̂ and its interval (clipped to [0, 1]) from any set of labelled units; `y` is read
    only where `labelled`."""
    fv, wv, qv = (np.asarray(x, dtype=float) for x in (f, w, q))
    lab = np.asarray(labelled, dtype=bool)
    n = fv.shape[0]
    if n == 0:
        return ActiveEstimate(None, None, None, 0, 0, 0)
    if not lab.any():  # the readers' prior alone: a guess, not an estimate
        return ActiveEstimate(float(fv.mean()), None, None, 0, n, 0)
    order = queue(qv)
    open_ = np.flatnonzero(~lab[order])
    prefix = int(open_[0]) if open_.size else n
    tau = float(qv[order[prefix]]) if prefix < n else 0.0
    certain = lab.copy()
    certain[order[:prefix]] = False  # labelled off the queue's opening: taken as they are
    design = ~certain
    pi = np.ones(n)
    if tau > 0.0:
        pi = np.where(design, np.minimum(1.0, wv / tau), 1.0)
    z = np.where(lab, np.asarray(y, dtype=float) - fv, 0.0)
    value, var = _moments(fv, z, pi, lab, design)
    return ActiveEstimate(
        value=float(value),
        ci=_ci(float(value), float(var), level),
        se=float(np.sqrt(max(float(var), 0.0))),
        n_labelled=int(lab.sum()),
        n_units=n,
        n_prefix=prefix,
    )


def walk(
    f: npt.ArrayLike, w: npt.ArrayLike, q: npt.ArrayLike, y: npt.ArrayLike, level: float = 0.95
) -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray, FloatArray]:
    """The estimate after labelling the queue's first 1, 2, …, N units, all at once
    (simulations and benchmarks): label counts, values, interval ends. Memory N² floats."""
    fv, wv, qv, yv = (np.asarray(x, dtype=float) for x in (f, w, q, y))
    n = fv.shape[0]
    order = queue(qv)
    fo, wo, qo = fv[order], wv[order], qv[order]
    counts = np.arange(1, n + 1)
    tau = np.append(qo[1:], 0.0)  # after k labels: the priority of the first unlabelled unit
    inside = np.arange(n)[None, :] < counts[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        pi = np.where(tau[:, None] > 0, np.minimum(1.0, wo[None, :] / tau[:, None]), 1.0)
    z = np.where(inside, (yv - fv)[order][None, :], 0.0)
    value, var = _moments(fo, z, pi, inside, np.ones_like(inside))
    half = NormalDist().inv_cdf(0.5 + level / 2.0) * np.sqrt(np.maximum(var, 0.0))
    return counts, value, np.maximum(value - half, 0.0), np.minimum(value + half, 1.0)


def decide(est: ActiveEstimate, bar: float, width: float) -> tuple[str, bool]:
    """The stopping rule in words, and whether to stop: decided when the interval lies on one
    side of `bar`, or precise enough when it is narrower than `width`; never on fewer than
    MIN_LABELS labels."""
    if est.value is None:
        return "no unit to estimate on", False
    if est.ci is None:
        return (
            f"no labels yet: the other automated readings alone predict {est.value:.3f}; "
            "label in this order",
            False,
        )
    lo, hi = est.ci
    n = est.n_labelled
    if n < MIN_LABELS:
        return (
            f"undecided: {n} labels so far, no decision rests on fewer than {MIN_LABELS}",
            False,
        )
    where = f"agreement {est.value:.3f} [{lo:.3f}, {hi:.3f}] against the bar {bar:.3f}"
    if lo >= bar:
        return (
            f"decided after {n} labels: can stand in ({where}); labelling more changes nothing",
            True,
        )
    if hi < bar:
        return (
            f"decided after {n} labels: cannot stand in ({where}); labelling more changes nothing",
            True,
        )
    if hi - lo < width:
        return (
            f"precise enough after {n} labels: the interval is narrower than {width:.2f} but "
            f"straddles the bar ({where}); more labels will not settle it",
            True,
        )
    return f"undecided after {n} labels: {where}; keep labelling in this order", False
