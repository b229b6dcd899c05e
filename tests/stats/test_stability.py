"""Stability metrics (§4.6) on a hand-worked example."""

from __future__ import annotations

import json
import math

import pytest

from w2c_tui.stats.metrics import INVALID, MISSING
from w2c_tui.stats.stability import METRICS, stability, stability_metrics, unit_stability

D, T, R, C = 0, 1, 2, 3

# Four units, k = 4; the last has only missing runs, so N = 4 and 3 are processed.
#   A gold T, runs T T T T        stable, mode T correct, acc 1, H 0, flips 0/3
#   B gold C, runs C inv inv C    tie C:2 inv:2 → first seen C (correct); cons 1/2; acc 1/2;
#                                 H = 1 bit, H/2 = 1/2; flips C→inv, inv→C = 2/3
#   C gold R, runs C C C C        stable but wrong; acc 0; H 0; flips 0
#   D gold T, runs all missing    not processed
RUNS = [[T, T, T, T], [C, INVALID, INVALID, C], [C, C, C, C], [MISSING] * 4]
GOLD = [T, C, R, T]

UNITS = [
    # mode, m, consistency, stable, mode_correct, accuracy, H, H/log2(4), flip
    (T, 4, 1.0, True, True, 1.0, 0.0, 0.0, 0.0),
    (C, 2, 0.5, False, True, 0.5, 1.0, 0.5, 2 / 3),
    (C, 4, 1.0, True, False, 0.0, 0.0, 0.0, 0.0),
]

# Sums over the 3 processed units, then / N = 4 (reference) and / 3 (processed):
#   stable 2, consistency 2.5, stable∧correct 1, stable∧wrong 1, mode correct 2,
#   accuracy 1.5, entropy 1, normalised entropy 0.5, flip 2/3.
SUMS = {
    "stability_at_k": 2,
    "mean_consistency_at_k": 2.5,
    "stable_and_correct_rate": 1,
    "stable_but_wrong_rate": 1,
    "mode_correct_rate": 2,
    "mean_accuracy_across_runs": 1.5,
    "mean_entropy": 1,
    "mean_normalized_entropy": 0.5,
    "mean_flip_rate": 2 / 3,
}


@pytest.mark.parametrize(("index", "expected"), list(enumerate(UNITS)))
def test_per_unit(index: int, expected: tuple[object, ...]) -> None:
    u = unit_stability(RUNS[index], GOLD[index])
    assert u is not None
    got = (
        u.mode,
        u.mode_count,
        u.consistency,
        u.is_stable,
        u.is_mode_correct,
        u.accuracy,
        u.entropy,
        u.normalized_entropy,
        u.flip_rate,
    )
    assert got == pytest.approx(expected)


def test_aggregates_divide_by_n() -> None:
    s = stability(RUNS, GOLD)
    assert (s.n, s.n_processed, s.coverage, s.k) == (4, 3, 0.75, 4)
    assert set(s.over_n) == set(METRICS)
    for name, total in SUMS.items():
        assert s.over_n[name] == pytest.approx(total / 4), name
        assert s.over_processed[name] == pytest.approx(total / 3), name
    assert s.over_n["stability_at_k"] == 0.5  # 2 stable of N=4, not of the 3 processed
    assert s.units[3] is None


def test_per_gold_divides_by_that_labels_processed_units() -> None:
    per = stability(RUNS, GOLD).per_gold
    # Gold tool_call: A and D, only A processed.
    assert (per["tool_call"]["n"], per["tool_call"]["n_processed"]) == (2, 1)
    assert per["tool_call"]["stability_at_k"] == 1.0
    assert per["cannot_answer"]["mean_flip_rate"] == pytest.approx(2 / 3)
    assert per["cannot_answer"]["mode_correct_rate"] == 1.0
    assert per["request_for_info"]["stable_but_wrong_rate"] == 1.0
    assert per["direct"]["n"] == 0 and per["direct"]["stability_at_k"] is None


@pytest.mark.parametrize(
    ("runs", "gold", "mode", "correct"),
    [
        ([C, INVALID, INVALID, C], C, C, True),  # first seen wins, not the smallest code
        ([INVALID, C, C, INVALID], C, INVALID, False),  # invalid can be the mode; never correct
        ([R, T, T, R], T, R, False),  # not the larger code either
    ],
)
def test_ties_go_to_first_seen(runs: list[int], gold: int, mode: int, correct: bool) -> None:
    u = unit_stability(runs, gold)
    assert u is not None and (u.mode, u.is_mode_correct) == (mode, correct)


@pytest.mark.parametrize(
    ("runs", "flip"),
    [([T, R, T, R], 1.0), ([T, T, R, R], 1 / 3), ([T], 0.0), ([T, MISSING, R], 1.0)],
)
def test_flip_rate(runs: list[int], flip: float) -> None:
    u = unit_stability(runs, T)
    assert u is not None and u.flip_rate == pytest.approx(flip)


def test_missing_runs_dropped_and_k_varies() -> None:
    s = stability([[T, MISSING, T, T], [T, T, T, T]], [T, T])
    assert (s.k, s.k_min, s.k_max) == (None, 3, 4)
    assert s.units[0] is not None and s.units[0]["k"] == 3


def test_entropy_of_four_even_labels_is_one() -> None:
    u = unit_stability([D, T, R, C], T)
    assert u is not None
    assert u.entropy == pytest.approx(2.0) and u.normalized_entropy == pytest.approx(1.0)
    # Invalid is a fifth symbol, so normalised entropy (÷ log2 4, as the reference) can pass 1.
    five = unit_stability([D, T, R, C, INVALID], T)
    assert five is not None and five.normalized_entropy == pytest.approx(math.log2(5) / 2)


def test_json_and_empty() -> None:
    data = stability_metrics(RUNS, GOLD)
    json.dumps(data, allow_nan=False)
    empty = stability([], [])
    assert empty.n == 0 and empty.over_n["stability_at_k"] is None and empty.k is None


@pytest.mark.parametrize(("runs", "gold"), [([[T]], [INVALID]), ([[5]], [T]), ([[T]], [T, T])])
def test_bad_input(runs: list[list[int]], gold: list[int]) -> None:
    with pytest.raises(ValueError):
        stability(runs, gold)
