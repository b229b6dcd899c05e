"""Every When2Call metric's interval: its point is compute_metrics', its interval the
percentile of compute_metrics itself over the very resamples the engine draws."""

from __future__ import annotations

import numpy as np
import pytest

from w2c_tui.domain.labels import InvalidMode
from w2c_tui.stats.metric_intervals import (
    IntervalSettings,
    intervals,
    metric_columns,
    metric_statistics,
    paired_statistics,
)
from w2c_tui.stats.metrics import Metrics, compute_metrics
from w2c_tui.stats.resample import resample_indices

LABEL_NAMES = ("direct", "tool_call", "request_for_info", "cannot_answer")


def flat(m: Metrics) -> dict[str, float | None]:
    """compute_metrics' values under the names of metric_statistics."""
    out: dict[str, float | None] = {
        "accuracy": m.accuracy,
        "accuracy_norm": m.accuracy_norm,
        "macro_f1_ref": m.macro_f1_ref,
        "macro_f1_ref_norm": m.macro_f1_ref_norm,
        "macro_f1_4": m.macro_f1_4,
        "macro_f1_no_direct": m.macro_f1_no_direct,
        "tool_hallucination": m.tool_hallucination["rate"],
        "answer_hallucination": m.answer_hallucination["rate"],
        "parameter_hallucination": m.parameter_hallucination["rate"],
        "invalid_rate": m.invalid_rate,
    }
    for name in LABEL_NAMES:
        f1 = m.per_class[name]["f1"]
        out[f"f1_{name}"] = float(f1) if f1 is not None else None
    return out


def data(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    gold = rng.integers(0, 4, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(-2, 4, n))
    no_tools = rng.random(n) < 0.3
    norm = np.where(pred >= 0, np.where(rng.random(n) < 0.8, pred, rng.integers(0, 4, n)), pred)
    return gold, pred, no_tools, norm


@pytest.mark.parametrize("mode", list(InvalidMode))
def test_every_point_is_compute_metrics(mode: InvalidMode) -> None:
    rng = np.random.default_rng(7)
    for _ in range(150):
        gold, pred, no_tools, norm = data(rng, int(rng.integers(1, 40)))
        want = flat(
            compute_metrics(gold, pred, no_tools=no_tools, pred_norm=norm, invalid_mode=mode)
        )
        cols = metric_columns(gold, pred, no_tools=no_tools, pred_norm=norm, invalid_mode=mode)
        stats = metric_statistics(cols, norm=True)
        assert set(stats) == set(want)
        for name, value in want.items():
            got, reason = stats[name].point()
            if value is None:
                assert got is None and reason, name
            else:
                assert got == pytest.approx(value, abs=1e-12), name


def test_intervals_are_the_percentiles_of_compute_metrics_on_the_same_resamples() -> None:
    rng = np.random.default_rng(11)
    gold, pred, no_tools, norm = data(rng, 80)
    mode = InvalidMode.WRONG
    cols = metric_columns(gold, pred, no_tools=no_tools, pred_norm=norm, invalid_mode=mode)
    got = intervals(metric_statistics(cols, norm=True), IntervalSettings(B=300, seed=5))
    naive: dict[str, list[float]] = {name: [] for name in got}
    for block in resample_indices(len(gold), 300, 5):
        for rows in block:
            m = compute_metrics(
                gold[rows],
                pred[rows],
                no_tools=no_tools[rows],
                pred_norm=norm[rows],
                invalid_mode=mode,
            )
            for name, value in flat(m).items():
                if value is not None:
                    naive[name].append(value)
    whole = flat(compute_metrics(gold, pred, no_tools=no_tools, pred_norm=norm, invalid_mode=mode))
    for name, est in got.items():
        assert est.value == pytest.approx(whole[name], abs=1e-12), name
        assert est.degenerate == 300 - len(naive[name]), name
        lo, hi = np.quantile(naive[name], [0.025, 0.975])
        assert est.ci == pytest.approx((lo, hi), abs=1e-12), name
        assert est.n >= 5


def test_a_metric_on_fewer_than_five_units_is_too_few() -> None:
    # three no-tool cannot_answer items: the tool-hallucination rate rests on n=3
    gold = np.array([3, 3, 3, 1, 1, 2, 2, 0, 0, 1])
    pred = np.array([1, 3, 3, 1, 1, 2, 1, 0, 0, 1])
    no_tools = np.array([True, True, True] + [False] * 7)
    cols = metric_columns(gold, pred, no_tools=no_tools)
    got = intervals(metric_statistics(cols, norm=False), IntervalSettings(B=100))
    tool = got["tool_hallucination"]
    assert tool.value is None and tool.ci is None and tool.n == 3
    assert tool.reason is not None and tool.reason.startswith("too few units (n=3")
    assert got["accuracy"].value == pytest.approx(0.8) and got["accuracy"].ci is not None
    assert got["parameter_hallucination"].n == 2 and got["parameter_hallucination"].value is None


def test_paired_difference_uses_the_same_items_in_each_resample() -> None:
    rng = np.random.default_rng(3)
    gold, pred_a, no_tools, _ = data(rng, 60)
    pred_b = np.where(rng.random(60) < 0.7, gold, rng.integers(0, 4, 60))
    a = metric_statistics(metric_columns(gold, pred_a, no_tools=no_tools), norm=False)
    b = metric_statistics(metric_columns(gold, pred_b, no_tools=no_tools), norm=False)
    diff = intervals(paired_statistics(a, b), IntervalSettings(B=200, seed=9))
    naive = []
    for block in resample_indices(60, 200, 9):
        for rows in block:
            ma = compute_metrics(gold[rows], pred_a[rows], no_tools=no_tools[rows])
            mb = compute_metrics(gold[rows], pred_b[rows], no_tools=no_tools[rows])
            assert ma.accuracy is not None and mb.accuracy is not None
            naive.append(ma.accuracy - mb.accuracy)
    acc = diff["accuracy"]
    whole_a = compute_metrics(gold, pred_a, no_tools=no_tools).accuracy
    whole_b = compute_metrics(gold, pred_b, no_tools=no_tools).accuracy
    assert whole_a is not None and whole_b is not None
    assert acc.value == pytest.approx(whole_a - whole_b, abs=1e-12)
    assert acc.ci == pytest.approx(tuple(np.quantile(naive, [0.025, 0.975])), abs=1e-12)


def test_no_bootstrap_gives_values_without_intervals() -> None:
    gold = np.array([0, 1, 2, 3, 1, 2])
    cols = metric_columns(gold, gold, no_tools=[False] * 6)
    got = intervals(metric_statistics(cols, norm=False), IntervalSettings(B=0))
    assert got["accuracy"].value == 1.0 and got["accuracy"].ci is None
