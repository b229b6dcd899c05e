"""Calibration of a rater that gives class probabilities (AGREEMENT.md Panel F), pure and JSON-able.

A log-prob MCQ rater gives four log-likelihoods per unit, ll_j = Σ log p(choice-j tokens | prompt).
`probabilities_from_loglikelihoods` turns them into a distribution over the four options by a
softmax: on the raw ll (argmax = lm-eval's `pred`, the `acc` prediction) or, given the choice
lengths, on ll_j / len_j (argmax = `pred_norm`, the `acc_norm` prediction). The softmax is a
renormalisation over the four options, not a calibrated posterior — which is what this measures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.metrics import N_LABELS, Codes, as_codes, ratio

FloatArray = npt.NDArray[np.float64]
SUM_TOLERANCE = 1e-6
"""How far a probability row may sum from 1."""


def probabilities_from_loglikelihoods(
    lls: npt.ArrayLike, lengths: npt.ArrayLike | None = None
) -> FloatArray:
    """Row-wise softmax of (n, 4) log-likelihoods, optionally divided by choice lengths first.

    `lengths` (broadcastable to `lls`, all > 0) is the Python character length of each choice
    string (lm-eval's `acc_norm` normaliser, WHEN2CALL_REFERENCE.md §2.2 step 8). The row maximum
    is subtracted before exponentiating, so ll near −2,800 neither under- nor overflows; −inf is
    allowed (probability 0) as long as one entry of the row is finite.
    """
    scores = np.asarray(lls, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[1] != N_LABELS:
        raise ValueError(f"lls must have shape (n, {N_LABELS}), got {scores.shape}")
    if np.isnan(scores).any() or np.isposinf(scores).any():
        raise ValueError("lls must not hold NaN or +inf")
    if lengths is not None:
        size = np.asarray(lengths, dtype=np.float64)
        if not (np.isfinite(size).all() and (size > 0).all()):
            raise ValueError("lengths must be finite and positive")
        scores = scores / np.broadcast_to(size, scores.shape)
    if scores.shape[0] and not np.isfinite(scores.max(axis=1)).all():
        raise ValueError("every row needs at least one finite log-likelihood")
    shifted = np.exp(scores - scores.max(axis=1, keepdims=True, initial=-np.inf))
    result: FloatArray = shifted / shifted.sum(axis=1, keepdims=True)
    return result


@dataclass(frozen=True)
class Calibration:
    """NLL, Brier, top-label ECE, reliability bins and the accuracy-vs-coverage curve.

    Prediction = argmax of the probabilities (first index on ties, as numpy/lm-eval); confidence =
    its probability. `nll` = mean −ln max(p_gold, nll_floor) (nats). `brier` = mean
    Σ_k (p_k − 1[k = gold])², in [0, 2]. Equal-mass bins: the units sorted by confidence are cut
    into `bins_requested` runs of ⌊n/b⌋ or ⌈n/b⌉; each run's top confidence is a bin's upper edge
    and a unit goes to the first bin whose edge ≥ its confidence. Tied confidences therefore always
    share a bin (the result does not depend on input order); ties across a cut make the lower bin
    bigger and can leave bins empty, which are dropped (`bins_used`). `ece` = Σ_b (n_b/n)·|acc_b −
    conf_b|, `mce` = max_b |acc_b − conf_b|. `coverage_curve`: keeping units with confidence ≥
    threshold, per threshold (default: every distinct confidence, high to low).
    """

    n: int
    accuracy: float | None
    nll: float | None
    nll_floor: float
    brier: float | None
    ece: float | None
    mce: float | None
    bins_requested: int
    bins_used: int
    reliability: list[dict[str, float | int]]  # n, confidence_low/high, mean_confidence, accuracy
    coverage_curve: list[dict[str, float | int | None]]  # threshold, n, coverage, accuracy

    def as_json(self) -> dict[str, object]:
        """A plain dict for json.dumps (no NaN anywhere)."""
        return asdict(self)


def _check_probabilities(probs: npt.ArrayLike) -> FloatArray:
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 2 or p.shape[1] != N_LABELS:
        raise ValueError(f"probs must have shape (n, {N_LABELS}), got {p.shape}")
    if not np.isfinite(p).all() or (p < 0).any():
        raise ValueError("probs must be finite and non-negative")
    if (np.abs(p.sum(axis=1) - 1.0) > SUM_TOLERANCE).any():
        raise ValueError("every probability row must sum to 1")
    return p


def _reliability(conf: FloatArray, correct: FloatArray, bins: int) -> list[dict[str, float | int]]:
    ordered = np.sort(conf)
    chunks = [c for c in np.array_split(np.arange(len(conf)), bins) if len(c)]
    edges = np.array([ordered[c[-1]] for c in chunks])
    bin_of = np.searchsorted(edges, conf, side="left")
    rows: list[dict[str, float | int]] = []
    for b in range(len(edges)):
        member = bin_of == b
        if member.any():
            rows.append(
                {
                    "n": int(member.sum()),
                    "confidence_low": float(conf[member].min()),
                    "confidence_high": float(conf[member].max()),
                    "mean_confidence": float(conf[member].mean()),
                    "accuracy": float(correct[member].mean()),
                }
            )
    return rows


def _coverage_curve(
    conf: FloatArray, correct: FloatArray, thresholds: Sequence[float] | None
) -> list[dict[str, float | int | None]]:
    order = np.argsort(conf, kind="stable")
    ordered, hits = conf[order], correct[order]
    below = np.concatenate([[0.0], np.cumsum(hits)])  # correct units among the i lowest
    levels = sorted(set(conf.tolist()), reverse=True) if thresholds is None else thresholds
    n = len(conf)
    points: list[dict[str, float | int | None]] = []
    for t in levels:
        cut = int(np.searchsorted(ordered, t, side="left"))
        kept = n - cut
        points.append(
            {
                "threshold": float(t),
                "n": kept,
                "coverage": ratio(kept, n),
                "accuracy": ratio(below[-1] - below[cut], kept),
            }
        )
    return points


def calibration(
    probs: npt.ArrayLike,
    gold: Codes,
    *,
    bins: int = 10,
    nll_floor: float = 1e-15,
    thresholds: Sequence[float] | None = None,
) -> Calibration:
    """Calibration of (n, 4) option probabilities against gold codes 0..3 (see `Calibration`)."""
    p = _check_probabilities(probs)
    g = as_codes(gold, name="gold", states=False)
    if len(g) != len(p):
        raise ValueError("probs and gold must have the same length")
    if bins < 1 or nll_floor <= 0:
        raise ValueError("bins must be ≥ 1 and nll_floor > 0")
    n = len(g)
    if n == 0:
        return Calibration(0, None, None, nll_floor, None, None, None, bins, 0, [], [])
    rows = np.arange(n)
    conf = p.max(axis=1)
    correct = (p.argmax(axis=1) == g).astype(np.float64)
    onehot = np.zeros_like(p)
    onehot[rows, g] = 1.0
    reliability = _reliability(conf, correct, bins)
    gaps = [abs(r["accuracy"] - r["mean_confidence"]) for r in reliability]
    return Calibration(
        n=n,
        accuracy=float(correct.mean()),
        nll=float(np.mean(-np.log(np.maximum(p[rows, g], nll_floor)))),
        nll_floor=nll_floor,
        brier=float(np.mean(((p - onehot) ** 2).sum(axis=1))),
        ece=float(sum(r["n"] / n * gap for r, gap in zip(reliability, gaps, strict=True))),
        mce=float(max(gaps)),
        bins_requested=bins,
        bins_used=len(reliability),
        reliability=reliability,
        coverage_curve=_coverage_curve(conf, correct, thresholds),
    )
