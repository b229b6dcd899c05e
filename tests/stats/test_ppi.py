"""PPI++ mean and classical mean against ppi_py (the authors' package) on random inputs."""

from __future__ import annotations

import numpy as np
import pytest
from dbfixtures import require_module

from w2c_tui.stats.ppi import (
    NotDefinedError,
    classical_mean,
    labels_to_halve,
    power_tuned_lambda,
    ppi_mean,
)
from w2c_tui.stats.ppi_f1 import bootstrap_macro_f1, plain_macro_f1, ppi_macro_f1

require_module("ppi_py", "dev")
import ppi_py  # noqa: E402


def sample(seed: int, n: int, big_n: int, flip: float, shift: float) -> tuple[np.ndarray, ...]:
    """0/1 human indicators, a judge that flips a share of them, and unlabelled judge ones."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.6).astype(float)
    yhat = np.where(rng.random(n) < flip, 1 - y, y)
    yu = (rng.random(big_n) < 0.6 + shift).astype(float)
    return y, yhat, yu


CASES = [
    (0, 100, 1000, 0.15, 0.0),
    (1, 30, 3000, 0.05, 0.1),
    (2, 500, 600, 0.3, -0.2),
    (3, 12, 40, 0.5, 0.0),  # a judge no better than chance: λ near 0
    (4, 8, 9, 0.0, 0.3),  # a perfect judge on few units
    (5, 50, 50, 0.9, 0.0),  # an anti-correlated judge: λ clipped to 0
]


@pytest.mark.parametrize(("seed", "n", "big_n", "flip", "shift"), CASES)
def test_ppi_mean_equals_ppi_py(seed: int, n: int, big_n: int, flip: float, shift: float) -> None:
    y, yhat, yu = sample(seed, n, big_n, flip, shift)
    ours = ppi_mean(y, yhat, yu, alpha=0.05)
    low, high = ppi_py.ppi_mean_ci(y, yhat, yu, alpha=0.05)
    point = ppi_py.ppi_mean_pointestimate(y, yhat, yu)
    assert ours.interval.value == pytest.approx(float(point[0]), abs=1e-12)
    assert ours.interval.low == pytest.approx(float(low[0]), abs=1e-12)
    assert ours.interval.high == pytest.approx(float(high[0]), abs=1e-12)
    assert 0 <= ours.lam <= 1


def test_lambda_is_clipped_at_both_ends() -> None:
    y, yhat, yu = sample(5, 50, 50, 0.9, 0.0)
    assert float(power_tuned_lambda(y, yhat, yu)) == 0.0  # negative covariance
    y3 = np.array([0, 0, 0, 1], dtype=float)
    yh3 = np.array([0, 0, 0, 1], dtype=float)
    yu3 = np.zeros(1000)
    # Y on a larger scale than Ŷ: Cov(Y, Ŷ) / ((1 + n/N)·Var(Ŷ)) is about 18, clipped to 1
    lam = float(power_tuned_lambda(y3 * 10, yh3, yu3))
    assert lam == 1.0
    ours = ppi_mean(y3 * 10, yh3, yu3)
    low, high = ppi_py.ppi_mean_ci(y3 * 10, yh3, yu3, alpha=0.05)
    assert ours.interval.low == pytest.approx(float(low[0]), abs=1e-12)
    assert ours.interval.high == pytest.approx(float(high[0]), abs=1e-12)


@pytest.mark.parametrize(("seed", "n"), [(0, 100), (1, 7), (2, 2000)])
def test_classical_mean_equals_ppi_py(seed: int, n: int) -> None:
    y = (np.random.default_rng(seed).random(n) < 0.3).astype(float)
    ours = classical_mean(y)
    low, high = ppi_py.classical_mean_ci(y, alpha=0.05)
    assert (ours.low, ours.high) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    assert ours.value == pytest.approx(y.mean(), abs=1e-15)


def test_undefined_cases_say_why() -> None:
    with pytest.raises(NotDefinedError, match="1 labelled unit"):
        ppi_mean([1.0], [1.0], [0.0, 1.0])
    with pytest.raises(NotDefinedError, match="no unit has a judge verdict without"):
        ppi_mean([1.0, 0.0], [1.0, 0.0], [])
    with pytest.raises(NotDefinedError, match="estimated variance is 0") as caught:
        ppi_mean([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0])
    assert caught.value.value == 1.0  # the estimate is defined, its interval is not
    # the humans vary, but the judge matches them and never varies outside: still no spread
    with pytest.raises(NotDefinedError, match="estimated variance is 0") as caught:
        ppi_mean([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0] * 5)
    assert caught.value.value == 0.0
    with pytest.raises(NotDefinedError, match="every unit scores the same") as caught:
        classical_mean([0.0, 0.0, 0.0])
    assert caught.value.value == 0.0
    with pytest.raises(NotDefinedError, match="1 unit"):
        classical_mean([0.0])


def test_a_constant_judge_leaves_the_humans_mean() -> None:
    """A judge whose indicator never varies gives λ = 0 (ppi_py divides 0 by 0 there)."""
    y = np.array([1, 0, 1, 1, 0], dtype=float)
    result = ppi_mean(y, np.ones(5), np.ones(50))
    plain = classical_mean(y)
    assert result.lam == 0.0
    assert (result.interval.value, result.interval.low) == pytest.approx((plain.value, plain.low))


def test_labels_to_halve() -> None:
    y, yhat, yu = sample(0, 100, 100_000, 0.15, 0.0)
    result = ppi_mean(y, yhat, yu)
    need = labels_to_halve(result)
    assert need is not None and 300 < need < 500  # about 4n when the judge's part is tiny
    target = (result.judge_var + result.label_var) / 4
    assert result.judge_var + result.label_var * 100 / need <= target * (1 + 1e-9)
    # as many unlabelled units as labelled and a perfect judge: λ = 1/2, the judge's part is
    # half the variance, and no number of labels halves the interval
    y, yhat, yu = sample(4, 20, 20, 0.0, 0.0)
    assert labels_to_halve(ppi_mean(y, yhat, yu)) is None


def test_macro_f1_is_the_plug_in_of_ppi_py_means() -> None:
    rng = np.random.default_rng(3)
    n, big_n = 120, 900
    g = rng.integers(0, 4, n)
    h = np.where(rng.random(n) < 0.7, g, rng.integers(0, 4, n))
    j = np.where(rng.random(n) < 0.85, h, rng.integers(0, 4, n))
    gu = rng.integers(0, 4, big_n)
    ju = np.where(rng.random(big_n) < 0.6, gu, rng.integers(0, 4, big_n))
    f1 = []
    for k in range(4):
        tp = ppi_py.ppi_mean_pointestimate(
            ((h == k) & (g == k)) * 1.0, ((j == k) & (g == k)) * 1.0, ((ju == k) & (gu == k)) * 1.0
        )[0]
        cls = ppi_py.ppi_mean_pointestimate((h == k) * 1.0, (j == k) * 1.0, (ju == k) * 1.0)[0]
        gold = (np.sum(g == k) + np.sum(gu == k)) / (n + big_n)
        f1.append(2 * tp / (cls + gold))
    result = ppi_macro_f1(h, j, g, ju, gu, seed=0, bootstrap=500)
    assert result.value == pytest.approx(float(np.mean(f1)), abs=1e-12)
    assert result.low < result.value < result.high
    again = ppi_macro_f1(h, j, g, ju, gu, seed=0, bootstrap=500)
    assert (again.low, again.high) == (result.low, result.high)  # seeded


def test_plain_macro_f1_matches_sklearn() -> None:
    from sklearn.metrics import f1_score  # type: ignore[import-untyped]

    rng = np.random.default_rng(4)
    gold = rng.integers(0, 4, 300)
    pred = np.where(rng.random(300) < 0.6, gold, rng.integers(0, 3, 300))
    counts = np.bincount(pred * 4 + gold, minlength=16).astype(float)
    expected = f1_score(gold, pred, average="macro", labels=[0, 1, 2, 3], zero_division=0)
    assert float(plain_macro_f1(counts)) == pytest.approx(expected, abs=1e-12)
    value, low, high = bootstrap_macro_f1(pred, gold, seed=1, bootstrap=300)
    assert value == pytest.approx(expected, abs=1e-12) and low < value < high
