"""Softmax of log-likelihoods and calibration (NLL, Brier, equal-mass ECE, coverage curve)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.special import softmax  # type: ignore[import-untyped]

from w2c_tui.stats.calibration import calibration, probabilities_from_loglikelihoods

# Four units, hand-worked (ln = natural log):
#   u0 p=[0, .7, .2, .1]    gold 1: pred 1 ✓ conf .7;  −ln .7 = 0.356675; Brier .09+.04+.01 = .14
#   u1 p=[0, .6, .4, 0]     gold 2: pred 1 ✗ conf .6;  −ln .4 = 0.916291; Brier .36+.36   = .72
#   u2 p=[0, .1, .1, .8]    gold 3: pred 3 ✓ conf .8;  −ln .8 = 0.223144; Brier .01+.01+.04 = .06
#   u3 p=[.25]*4            gold 0: pred 0 ✓ (ties → lowest index) conf .25; −ln .25 = 1.386294;
#                                   Brier .5625 + 3·.0625 = .75
# NLL = 2.882404/4 = 0.720601; Brier = 1.67/4 = .4175; accuracy 3/4.
# bins=2, sorted conf .25 ✓ | .6 ✗ || .7 ✓ | .8 ✓: bin0 conf .425 acc .5 gap .075;
#   bin1 conf .75 acc 1 gap .25 → ECE = .5·.075 + .5·.25 = .1625, MCE .25.
# bins=4: gaps .75, .6, .3, .2 → ECE 1.85/4 = .4625.
PROBS = np.array([[0, 0.7, 0.2, 0.1], [0, 0.6, 0.4, 0], [0, 0.1, 0.1, 0.8], [0.25] * 4])
GOLD = [1, 2, 3, 0]


def test_hand_worked_example() -> None:
    c = calibration(PROBS, GOLD, bins=2)
    assert c.accuracy == 0.75
    assert c.nll == pytest.approx(
        (-math.log(0.7) - math.log(0.4) - math.log(0.8) - math.log(0.25)) / 4
    )
    assert c.nll == pytest.approx(0.720601, abs=1e-6)
    assert c.brier == pytest.approx(0.4175)
    assert c.ece == pytest.approx(0.1625)
    assert c.mce == pytest.approx(0.25)
    assert [r["n"] for r in c.reliability] == [2, 2]
    assert [r["mean_confidence"] for r in c.reliability] == pytest.approx([0.425, 0.75])
    assert [r["accuracy"] for r in c.reliability] == [0.5, 1.0]


@pytest.mark.parametrize(("bins", "ece"), [(1, 0.1625), (2, 0.1625), (4, 0.4625), (10, 0.4625)])
def test_ece_by_bins(bins: int, ece: float) -> None:
    # bins=1: conf 2.35/4 = .5875 vs acc .75 → .1625; more bins than units → one unit per bin.
    assert calibration(PROBS, GOLD, bins=bins).ece == pytest.approx(ece)


def test_accuracy_vs_coverage() -> None:
    # Keep conf ≥ t: .8 → {u2}; .7 → {u2,u0}; .6 → +u1 (wrong); .25 → all.
    curve = calibration(PROBS, GOLD).coverage_curve
    assert [(p["threshold"], p["coverage"], p["accuracy"]) for p in curve] == [
        (0.8, 0.25, 1.0),
        (0.7, 0.5, 1.0),
        (0.6, 0.75, pytest.approx(2 / 3)),
        (0.25, 1.0, 0.75),
    ]
    fixed = calibration(PROBS, GOLD, thresholds=[0.9, 0.0]).coverage_curve
    assert fixed == [
        {"threshold": 0.9, "n": 0, "coverage": 0.0, "accuracy": None},
        {"threshold": 0.0, "n": 4, "coverage": 1.0, "accuracy": 0.75},
    ]


def test_perfect_probabilities() -> None:
    gold = [1, 2, 3, 1, 3]
    c = calibration(np.eye(4)[gold], gold)
    assert c.nll == pytest.approx(0.0, abs=1e-12)
    assert (c.brier, c.ece, c.mce, c.accuracy) == (0.0, 0.0, 0.0, 1.0)
    assert c.bins_used == 1  # all confidences tie at 1.0 → one bin


def test_nll_floor() -> None:
    c = calibration(np.array([[0.0, 1.0, 0.0, 0.0]]), [2])
    assert c.nll == pytest.approx(-math.log(1e-15))  # 34.54, not inf
    assert c.brier == 2.0


@pytest.mark.parametrize(("n", "bins"), [(1000, 10), (1003, 10), (1000, 15), (37, 15)])
def test_equal_mass_bins(n: int, bins: int) -> None:
    rng = np.random.default_rng(n + bins)
    probs = rng.dirichlet(np.ones(4), size=n)
    gold = rng.integers(0, 4, size=n)
    c = calibration(probs, gold, bins=bins)
    sizes = [r["n"] for r in c.reliability]
    assert c.bins_used == bins and sum(sizes) == n
    assert set(sizes) <= {n // bins, -(-n // bins)}  # ⌊n/b⌋ or ⌈n/b⌉
    highs = [r["confidence_high"] for r in c.reliability]
    assert highs == sorted(highs)


def test_tied_confidences_share_a_bin() -> None:
    # Confidences .5 .5 .5 .9, bins=2: cut after the 2nd unit falls inside the tie, so the three
    # .5 units stay together (3 + 1), whatever the input order.
    probs = np.array([[0, 0.5, 0.3, 0.2], [0, 0.9, 0.1, 0], [0, 0.5, 0.5, 0], [0.5, 0.5, 0, 0]])
    for order in ([0, 1, 2, 3], [1, 3, 2, 0]):
        c = calibration(probs[order], np.array([1, 1, 2, 0])[order], bins=2)
        assert [r["n"] for r in c.reliability] == [3, 1]


def test_softmax_of_large_negative_loglikelihoods() -> None:
    lls = np.array([[-2800.0, -2810.0, -2805.0, -2900.0], [-3000.0, -np.inf, -2999.0, -3001.0]])
    with np.errstate(all="ignore"):
        naive = np.exp(lls) / np.exp(lls).sum(axis=1, keepdims=True)
    assert np.isnan(naive).all()  # exp(−2800) underflows to 0 → 0/0
    p = probabilities_from_loglikelihoods(lls)
    assert np.isfinite(p).all() and np.allclose(p.sum(axis=1), 1.0)
    assert p[0, 0] == pytest.approx(1 / (1 + math.exp(-10) + math.exp(-5) + math.exp(-100)))
    assert p[1, 1] == 0.0
    assert np.allclose(p[0], softmax(lls[0]))


def test_raw_and_length_normalised_softmax() -> None:
    """§2.2 worked example: raw argmax 1 (acc), length-normalised argmax 0 (acc_norm)."""
    lls = np.array([[-40.0, -30.0, -35.0, -60.0]])
    lengths = np.array([[160, 90, 110, 150]])
    raw = probabilities_from_loglikelihoods(lls)
    norm = probabilities_from_loglikelihoods(lls, lengths)
    assert (int(raw.argmax()), int(norm.argmax())) == (1, 0)
    assert np.allclose(norm[0], softmax([-0.25, -30 / 90, -35 / 110, -0.4]))
    assert calibration(raw, [1]).accuracy == 1.0 and calibration(norm, [1]).accuracy == 0.0


def test_json_and_empty() -> None:
    json.dumps(calibration(PROBS, GOLD).as_json(), allow_nan=False)
    empty = calibration(np.zeros((0, 4)), [])
    assert (empty.n, empty.nll, empty.ece, empty.reliability) == (0, None, None, [])
    json.dumps(empty.as_json(), allow_nan=False)


@pytest.mark.parametrize(
    ("probs", "gold", "kwargs"),
    [
        ([[0.5, 0.5, 0.5, 0.5]], [1], {}),  # sums to 2
        ([[0.5, 0.5, 0.0]], [1], {}),  # three columns
        ([[1.5, -0.5, 0.0, 0.0]], [1], {}),  # negative
        ([[0.25] * 4], [1, 2], {}),  # length mismatch
        ([[0.25] * 4], [1], {"bins": 0}),
    ],
)
def test_bad_probabilities(
    probs: list[list[float]], gold: list[int], kwargs: dict[str, int]
) -> None:
    with pytest.raises(ValueError):
        calibration(np.array(probs), gold, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lls", "lengths"),
    [
        ([[np.nan, 0.0, 0.0, 0.0]], None),
        ([[-np.inf] * 4], None),
        ([[-1.0, -2.0, -3.0]], None),
        ([[-1.0, -2.0, -3.0, -4.0]], [[1, 0, 1, 1]]),
    ],
)
def test_bad_loglikelihoods(lls: list[list[float]], lengths: list[list[int]] | None) -> None:
    with pytest.raises(ValueError):
        probabilities_from_loglikelihoods(lls, lengths)
