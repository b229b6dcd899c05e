"""500 seeded replays of a biased judge: the corrected interval covers the truth, is narrower
than the humans' alone, and is unbiased. Vectorised across replays (one numpy call each)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.ppi import ppi_mean_arrays, z_value

REPLAYS, UNITS, LABELLED = 500, 1500, 100
GOLD_P = np.array([0.2, 0.35, 0.2, 0.25])
RIGHT = 0.7
"""A response's class equals gold with this probability, else one of the other three."""
JUDGE_ERROR = np.array([0.10, 0.15, 0.20, 0.15])
"""Per true class: how often the judge reads the next class instead (a systematic bias)."""

Ints = npt.NDArray[np.int64]


def world(seed: int) -> tuple[Ints, Ints, Ints]:
    """(gold, the response's true class, the judge's class), each replays × units."""
    rng = np.random.default_rng(seed)
    shape = (REPLAYS, UNITS)
    gold = rng.choice(4, size=shape, p=GOLD_P)
    other = (gold + rng.integers(1, 4, size=shape)) % 4
    truth = np.where(rng.random(shape) < RIGHT, gold, other)
    judge = np.where(rng.random(shape) < JUDGE_ERROR[truth], (truth + 1) % 4, truth)
    return gold, truth, judge


def figures(
    y: npt.NDArray[np.float64], yhat: npt.NDArray[np.float64], true: float
) -> dict[str, float]:
    """Coverage of `true`, mean width against the humans-only width, bias, over replays; the
    first LABELLED units of each replay are the labelled ones (units are exchangeable)."""
    lab, unl = slice(0, LABELLED), slice(LABELLED, None)
    estimate, _, judge_var, label_var = ppi_mean_arrays(y[:, lab], yhat[:, lab], yhat[:, unl])
    half = z_value(0.05) * np.sqrt(judge_var + label_var)
    humans_half = z_value(0.05) * y[:, lab].std(-1) / np.sqrt(LABELLED)
    judge_only = yhat.mean(-1)
    return {
        "coverage": float(np.mean(np.abs(estimate - true) <= half)),
        "width_ratio": float(np.mean(half) / np.mean(humans_half)),
        "bias": float(np.mean(estimate) - true),
        "judge_only_bias": float(np.mean(judge_only) - true),
    }


def test_accuracy_with_a_biased_judge() -> None:
    gold, truth, judge = world(2026)
    result = figures((truth == gold) * 1.0, (judge == gold) * 1.0, RIGHT)
    print("accuracy", result)
    assert result["coverage"] >= 0.93
    assert result["width_ratio"] <= 0.8
    assert abs(result["bias"]) < 0.01
    assert abs(result["judge_only_bias"]) > 0.03  # the judge alone is off: a real test


def test_answer_hallucination_with_a_biased_judge() -> None:
    """A rare indicator (7.5%) with 100 labels: the normal interval undercovers a little
    (0.902 here; 0.915 pooled over 20 seeds, 10,000 replays, against accuracy's 0.937):
    pinned so that it stays mild, with the same width and bias bounds."""
    gold, truth, judge = world(7)
    # P(class = direct and gold ≠ direct): the other-class draw lands on direct w.p. 1/3
    true = float((1 - RIGHT) / 3 * (1 - GOLD_P[0]))
    halluc = ((truth == 0) & (gold != 0)) * 1.0
    result = figures(halluc, ((judge == 0) & (gold != 0)) * 1.0, true)
    print("answer_hallucination", result)
    assert result["coverage"] >= 0.88
    assert result["width_ratio"] <= 0.8
    assert abs(result["bias"]) < 0.01
