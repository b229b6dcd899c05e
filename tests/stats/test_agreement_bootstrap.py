"""The vectorised unit bootstrap against a naive per-resample loop, and paired intervals."""

from __future__ import annotations

import numpy as np
import pytest

from w2c_tui.stats import (
    RatingTable,
    UnitStats,
    agreement_summary,
    alpha_statistic,
    bootstrap,
    fleiss_kappa,
    fraction_below,
    gwet_ac1,
    judge_vs_humans,
    krippendorff_alpha,
    mean_kappa_statistic,
    one_vs_rest,
    pair_statistics,
    paired_difference,
    pairwise,
    percent_agreement,
    resample_indices,
    specific_agreement,
)
from w2c_tui.stats.resample import interval

pytestmark = pytest.mark.filterwarnings("error")

CATS = ["direct", "tool_call", "request_for_info", "cannot_answer"]


def synthetic(
    n_units: int, n_raters: int, seed: int, missing: float = 0.2, noise: float = 0.3
) -> RatingTable:
    rng = np.random.default_rng(seed)
    truth = rng.choice(4, size=n_units, p=[0.55, 0.25, 0.15, 0.05])
    codes = np.where(
        rng.random((n_units, n_raters)) < noise,
        rng.choice(4, size=(n_units, n_raters)),
        truth[:, None],
    )
    codes[rng.random(codes.shape) < missing] = -1
    return RatingTable.from_codes(codes, CATS)


def value(est: object) -> float:
    v = getattr(est, "value", None)
    return np.nan if v is None else float(v)


def naive(table: RatingTable, B: int, seed: int) -> dict[str, np.ndarray]:
    """One full recomputation per resample, on the resample's own table (package α included)."""
    from sklearn.metrics import cohen_kappa_score

    out: dict[str, list[float]] = {}
    for block in resample_indices(table.n_units, B, seed):
        for idx in block:
            t = table.take(idx)
            row = {
                "alpha": value(krippendorff_alpha(t)),
                "fleiss": value(fleiss_kappa(t)),
                "ac1": value(gwet_ac1(t)),
                "pa": value(percent_agreement(t)),
            }
            for c, e in specific_agreement(t).items():
                row[f"sa:{c}"] = value(e)
            for c, d in one_vs_rest(t).items():
                row[f"oa:{c}"], row[f"ok:{c}"] = value(d["alpha"]), value(d["kappa"])
            a, b = t.codes[:, 0], t.codes[:, 1]
            both = (a >= 0) & (b >= 0)
            if both.any() and not (
                np.unique(a[both]).size == 1 and np.array_equal(a[both], b[both])
            ):
                row["ck"] = cohen_kappa_score(a[both], b[both], labels=[0, 1, 2, 3])
            else:
                row["ck"] = np.nan
            row["po"] = float((a[both] == b[both]).mean()) if both.any() else np.nan
            for k, v in row.items():
                out.setdefault(k, []).append(v)
    return {k: np.array(v) for k, v in out.items()}


@pytest.mark.parametrize(
    ("n_units", "n_raters", "missing", "B", "batch", "grouped", "some_degenerate"),
    [
        (40, 4, 0.35, 60, 7, False, False),
        (15, 4, 0.35, 30, 100, False, True),
        (300, 3, 0.1, 40, 16, True, False),  # few distinct rows: W summed per pattern
        (40, 2, 0.3, 40, 100, True, True),
    ],
)
def test_vectorised_equals_naive_loop_with_the_same_resamples(
    n_units: int,
    n_raters: int,
    missing: float,
    B: int,
    batch: int,
    grouped: bool,
    some_degenerate: bool,
) -> None:
    table = synthetic(n_units, n_raters, seed=5, missing=missing, noise=0.15)
    patterns = table.patterns()
    if grouped:
        assert 2 * len(np.unique(patterns)) <= n_units  # the grouped path is the one tested
    us = UnitStats(table.counts())
    stats = {
        "alpha": us.alpha(),
        "fleiss": us.fleiss(),
        "ac1": us.ac1(),
        "pa": us.percent_agreement(),
    }
    for k, c in enumerate(CATS):
        stats[f"sa:{c}"] = us.specific(k, c)
        stats[f"oa:{c}"] = us.alpha_vs_rest(k, c)
        stats[f"ok:{c}"] = us.kappa_vs_rest(k, c)
    stats["ck"], stats["po"] = pair_statistics(table.codes[:, 0], table.codes[:, 1], 4)
    fast = bootstrap(stats, B=B, seed=123, batch=batch, patterns=patterns if grouped else None)
    slow = naive(table, B, seed=123)
    for key, reps in fast.items():
        assert reps.shape == (B,)
        np.testing.assert_allclose(reps, slow[key], rtol=0, atol=1e-12, err_msg=key)
        (ci_fast, deg_fast), (ci_slow, deg_slow) = interval(reps), interval(slow[key])
        assert deg_fast == deg_slow, key
        if ci_slow is None:
            assert ci_fast is None
        else:
            assert ci_fast == pytest.approx(ci_slow, abs=1e-12), key
    if some_degenerate:  # the NaN <-> None mapping of undefined resamples is exercised
        assert any(np.isnan(r).any() for r in fast.values())


def test_grouping_by_pattern_changes_nothing() -> None:
    table = synthetic(500, 3, seed=2, missing=0.1, noise=0.2)
    us = UnitStats(table.counts())
    stats = {"alpha": us.alpha(), "ac1": us.ac1()}
    stats["ck"], _ = pair_statistics(table.codes[:, 0], table.codes[:, 2], 4)
    plain = bootstrap(stats, B=250, seed=1)
    grouped = bootstrap(stats, B=250, seed=1, patterns=table.patterns())
    for key in stats:
        np.testing.assert_allclose(grouped[key], plain[key], rtol=0, atol=1e-12)


def test_batch_size_changes_nothing() -> None:
    table = synthetic(120, 4, seed=3)
    stat = {"a": alpha_statistic(table)}
    ref = bootstrap(stat, B=237, seed=5)["a"]
    for batch in (1, 7, 10, 64, 1000):
        got = bootstrap(stat, B=237, seed=5, batch=batch)["a"]
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-14)  # BLAS rounding only


def test_public_functions_report_the_same_intervals_as_the_engine() -> None:
    table = synthetic(60, 3, seed=9)
    est = krippendorff_alpha(table, bootstrap=200, seed=4)
    reps = bootstrap({"a": alpha_statistic(table)}, B=200, seed=4)["a"]
    assert est.ci == interval(reps)[0]
    pw = pairwise(table, bootstrap=200, seed=4)[0]
    k, _ = pair_statistics(table.codes[:, 0], table.codes[:, 1], 4)
    assert pw.cohen_kappa.ci == interval(bootstrap({"k": k}, B=200, seed=4)["k"])[0]


def test_alpha_coincidence_formula_agrees_with_the_package() -> None:
    for seed in range(12):
        table = synthetic(int(np.random.default_rng(seed).integers(5, 300)), 5, seed, 0.4)
        vec, _ = alpha_statistic(table).point()
        pkg = krippendorff_alpha(table).value
        assert vec is not None and pkg is not None
        assert abs(vec - pkg) < 1e-12


def test_seeded_reproducibility() -> None:
    table = synthetic(80, 4, seed=1)
    a = fleiss_kappa(table, bootstrap=300, seed=42)
    b = fleiss_kappa(table, bootstrap=300, seed=42)
    c = fleiss_kappa(table, bootstrap=300, seed=43)
    assert a == b
    assert a.ci != c.ci
    assert a.ci is not None and a.ci[0] < (a.value or 0) < a.ci[1]


def test_degenerate_resamples_are_counted_not_hidden() -> None:
    # 5 units unanimous on "direct", one unit split: a resample without unit 5 has one category.
    table = RatingTable.from_codes([[0, 0]] * 5 + [[0, 1]], CATS)
    B, seed = 400, 3
    est = krippendorff_alpha(table, bootstrap=B, seed=seed)
    without_split = sum(
        int(not (row == 5).any()) for block in resample_indices(6, B, seed) for row in block
    )
    assert without_split > 0
    assert est.degenerate == without_split
    reps = bootstrap({"a": alpha_statistic(table)}, B=B, seed=seed)["a"]
    assert np.isnan(reps).sum() == without_split
    assert est.ci == interval(reps)[0]  # percentiles of the defined resamples only
    assert est.ci is not None


def test_paired_difference_uses_the_same_resamples() -> None:
    rng = np.random.default_rng(2)
    humans = synthetic(150, 3, seed=2, missing=0.1, noise=0.25).codes
    truth_like = np.where(humans[:, 0] >= 0, humans[:, 0], 0)
    judge = np.where(rng.random(150) < 0.6, truth_like, rng.choice(4, size=150))
    table = RatingTable.from_codes(np.c_[humans, judge], CATS, raters=["h1", "h2", "h3", "judge"])
    res = judge_vs_humans(table, "judge", ["h1", "h2", "h3"], bootstrap=400, seed=8)
    for d, x, y in [
        (res.delta_kappa, res.kappa_judge_human, res.kappa_human_human),
        (res.delta_alpha, res.alpha_with_judge, res.alpha_humans),
    ]:
        assert d.value == pytest.approx((x.value or 0) - (y.value or 0), abs=1e-12)
        assert d.ci is not None and d.ci[0] <= d.value <= d.ci[1]  # type: ignore[operator]
    # replicate by replicate: difference of the two terms on the same resamples
    k_jh = mean_kappa_statistic(table, [("judge", h) for h in ("h1", "h2", "h3")])
    k_hh = mean_kappa_statistic(table, [("h1", "h2"), ("h1", "h3"), ("h2", "h3")])
    reps = bootstrap({"jh": k_jh, "hh": k_hh}, B=400, seed=8)
    d = paired_difference(k_jh, k_hh, bootstrap=400, seed=8)
    assert d.ci == interval(reps["jh"] - reps["hh"])[0]
    assert d.ci == res.delta_kappa.ci
    # the mean pairwise κ is the mean of the pairs' Cohen κ
    pw = {(p.a, p.b): p.cohen_kappa.value for p in pairwise(table)}
    hh = np.mean([pw[("h1", "h2")], pw[("h1", "h3")], pw[("h2", "h3")]])
    assert res.kappa_human_human.value == pytest.approx(hh, abs=1e-12)


def test_p_alpha_below_is_the_bootstrap_share() -> None:
    table = synthetic(60, 3, seed=4, noise=0.45)
    doc = agreement_summary(table, bootstrap=300, seed=6)
    reps = bootstrap({"a": alpha_statistic(table)}, B=300, seed=6)["a"]
    below = doc["p_alpha_below"]
    assert below == {"0.667": fraction_below(reps, 0.667), "0.800": fraction_below(reps, 0.8)}
    assert 0.0 <= below["0.667"] <= below["0.800"] <= 1.0  # type: ignore[index,operator]


def test_the_judge_comparison_resamples_the_humans_population() -> None:
    """α(humans) in the comparison has the interval of the humans' own summary, though the
    judge read 40 units no human labelled (they pair with no one: no estimate moves)."""
    humans = synthetic(30, 2, seed=11, missing=0.3, noise=0.4).codes
    codes = np.r_[humans, np.full((40, 2), -1)]
    judge = np.random.default_rng(11).choice(4, size=70)
    table = RatingTable.from_codes(np.c_[codes, judge], CATS, raters=["h1", "h2", "judge"])
    own = agreement_summary(table.subset(["h1", "h2"]), bootstrap=300, seed=5)
    res = judge_vs_humans(table, "judge", ["h1", "h2"], bootstrap=300, seed=5)
    mine = own["krippendorff_alpha"]
    assert res.alpha_humans.value == pytest.approx(mine["value"], abs=1e-12)  # type: ignore[index]
    assert res.alpha_humans.ci == pytest.approx(mine["ci"], abs=1e-12)  # type: ignore[index]
    assert res.alpha_humans.degenerate == mine["degenerate"]  # type: ignore[index]
    everyone = krippendorff_alpha(table, bootstrap=0)  # all 70 units
    assert res.alpha_with_judge.value == pytest.approx(everyone.value, abs=1e-12)
