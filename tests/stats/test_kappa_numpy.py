"""Cohen's κ with numpy on the codes equals scikit-learn's `cohen_kappa_score` to the last bit:
random seeded pairs with missing values, categories one rater never uses, a constant rater,
and no overlap at all."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.metrics import cohen_kappa_score

from w2c_tui.stats.reference import EMPTY_OVERLAP, SAME_SINGLE, kappa_point


def sklearn_kappa(a: np.ndarray, b: np.ndarray, q: int) -> float | None:
    both = (a >= 0) & (b >= 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = float(cohen_kappa_score(a[both], b[both], labels=list(range(q))))
    return value if np.isfinite(value) else None


def test_numpy_kappa_is_sklearns() -> None:
    rng = np.random.default_rng(11)
    for case in range(300):
        q = int(rng.integers(2, 6))
        n = int(rng.integers(2, 400))
        a = rng.integers(0, q, n)
        b = np.where(rng.random(n) < 0.6, a, rng.integers(0, q, n))
        if case % 3 == 0:
            b = np.where(b == q - 1, 0, b)  # a category b never uses
        a = np.where(rng.random(n) < 0.15, -1, a)
        b = np.where(rng.random(n) < 0.15, -1, b)
        if not ((a >= 0) & (b >= 0)).any():
            continue
        value, reason = kappa_point(a, b, q)
        expected = sklearn_kappa(a, b, q)
        assert value == expected, (case, value, expected)
        assert (reason is None) == (expected is not None)


def test_kappa_not_defined() -> None:
    same = np.array([2, 2, 2, -1])
    assert kappa_point(same, np.array([2, 2, 2, 1]), 4) == (None, SAME_SINGLE)
    assert kappa_point(np.array([0, -1]), np.array([-1, 1]), 4) == (None, EMPTY_OVERLAP)
