"""Stuart–Maxwell marginal homogeneity and the alternative-annotator test."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from w2c_tui.stats import RatingTable, alt_test, stuart_maxwell

pytestmark = pytest.mark.filterwarnings("error")

CATS = ["direct", "tool_call", "request_for_info", "cannot_answer"]


# ----------------------------------------------------------------------- Stuart–Maxwell
def statsmodels_sm(t: np.ndarray) -> tuple[float, float, int]:
    from statsmodels.stats.contingency_tables import SquareTable

    with warnings.catch_warnings():  # statsmodels warns on its own singular case
        warnings.simplefilter("ignore")
        r = SquareTable(t, shift_zeros=False).homogeneity()
    return float(r.statistic), float(r.pvalue), int(r.df)


@pytest.mark.parametrize("seed", range(8))
def test_stuart_maxwell_matches_statsmodels(seed: int) -> None:
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 6))
    t = rng.integers(0, 30, size=(q, q)) + np.diag(rng.integers(10, 60, size=q))
    t[t == 0] = 1  # every category has off-diagonal cells: statsmodels is defined
    mine = stuart_maxwell(t)
    stat, p, df = statsmodels_sm(t)
    assert mine.statistic == pytest.approx(stat, rel=1e-10)
    assert mine.p_value == pytest.approx(p, rel=1e-8, abs=1e-300)
    assert mine.df == df == q - 1
    assert mine.dropped == ()


@pytest.mark.parametrize(
    ("table", "statistic", "df"),
    [
        # R reference results shipped with statsmodels' test suite
        # (statsmodels/stats/tests/results/contingency_table_r_results.csv, "homog_stat").
        ([[23, 15], [19, 31]], 0.470588235294118, 1),
        ([[144, 33, 84, 126], [2, 4, 14, 29], [0, 2, 6, 25], [0, 0, 1, 5]], 271.922246968262, 3),
        ([[20, 10, 5], [3, 30, 15], [0, 5, 40]], 13.7647058823529, 2),
    ],
)
def test_stuart_maxwell_r_reference(table: list[list[int]], statistic: float, df: int) -> None:
    mine = stuart_maxwell(np.array(table))
    assert mine.statistic == pytest.approx(statistic, rel=1e-12)
    assert mine.df == df
    assert mine.n == np.sum(table)


def test_stuart_maxwell_drops_category_without_off_diagonal_cells() -> None:
    t = np.array([[30, 5, 0, 2], [9, 20, 0, 4], [0, 0, 7, 0], [6, 1, 0, 10]])
    stat, _, _ = statsmodels_sm(t)
    assert np.isnan(stat)  # the §8 pitfall
    mine = stuart_maxwell(t, CATS)
    assert mine.dropped == ("request_for_info",)
    assert mine.reason is not None and "request_for_info" in mine.reason
    keep = [0, 1, 3]
    ref, p_ref, df_ref = statsmodels_sm(t[np.ix_(keep, keep)])
    assert mine.statistic == pytest.approx(ref, rel=1e-10)
    assert mine.p_value == pytest.approx(p_ref, rel=1e-8)
    assert mine.df == df_ref == 2


def test_stuart_maxwell_disconnected_blocks_and_perfect_agreement() -> None:
    a = np.array([[10, 4], [1, 8]])
    b = np.array([[12, 2], [7, 9]])
    t = np.zeros((4, 4), dtype=int)
    t[:2, :2], t[2:, 2:] = a, b
    mine = stuart_maxwell(t)
    assert mine.df == 2
    assert mine.statistic == pytest.approx(statsmodels_sm(a)[0] + statsmodels_sm(b)[0], rel=1e-10)
    diag = stuart_maxwell(np.diag([5, 6, 7]))
    assert diag.statistic is None and diag.p_value is None
    assert diag.reason and "no off-diagonal" in diag.reason
    assert diag.dropped == ("0", "1", "2")


# ----------------------------------------------------------------------- alt-test
def panel(n: int, judge_noise: float, seed: int, n_humans: int = 4) -> RatingTable:
    rng = np.random.default_rng(seed)
    truth = rng.choice(4, size=n, p=[0.4, 0.3, 0.2, 0.1])
    humans = np.where(
        rng.random((n, n_humans)) < 0.25, rng.choice(4, size=(n, n_humans)), truth[:, None]
    )
    humans[rng.random(humans.shape) < 0.1] = -1
    judge = np.where(rng.random(n) < judge_noise, rng.choice(4, size=n), truth)
    names = [f"h{i}" for i in range(n_humans)] + ["judge"]
    return RatingTable.from_codes(np.c_[humans, judge], CATS, raters=names)


def test_alt_test_needs_three_humans() -> None:
    t = panel(50, 0.1, 0, n_humans=2)
    res = alt_test(t, "judge", ["h0", "h1"])
    assert res.winning_rate is None and res.passed is None
    assert res.reason and "at least 3" in res.reason


def test_good_judge_passes_random_judge_fails() -> None:
    good = alt_test(panel(120, 0.05, 1), "judge", ["h0", "h1", "h2", "h3"])
    bad = alt_test(panel(120, 1.0, 1), "judge", ["h0", "h1", "h2", "h3"])
    assert good.passed is True and good.winning_rate == 1.0
    assert bad.passed is False and (bad.winning_rate or 0) < 0.5
    assert (good.advantage_probability or 0) > (bad.advantage_probability or 1)


def test_alt_test_against_scipy_and_statsmodels() -> None:
    """Recompute each annotator's t-test and the BY correction with independent tools."""
    from scipy.stats import ttest_1samp
    from statsmodels.stats.multitest import multipletests

    t = panel(80, 0.35, 4)
    humans = ["h0", "h1", "h2", "h3"]
    eps = 0.1
    res = alt_test(t, "judge", humans, epsilon=eps, alpha=0.05)
    j = t.column("judge")
    pvals = []
    for a, h in zip(res.annotators, humans, strict=True):
        mine = t.column(h)
        others = t.subset([x for x in humans if x != h]).codes
        k = (others >= 0).sum(axis=1)
        use = (mine >= 0) & (j >= 0) & (k >= 1)
        s_j = (others[use] == j[use, None]).sum(axis=1) / k[use]
        s_h = (others[use] == mine[use, None]).sum(axis=1) / k[use]
        d = (s_j >= s_h).astype(float) - (s_h >= s_j).astype(float)
        ref = ttest_1samp(d, -eps, alternative="greater")
        assert a.n == use.sum()
        assert a.rho_judge == pytest.approx((s_j >= s_h).mean())
        assert a.t == pytest.approx(ref.statistic, rel=1e-12)
        assert a.p_value == pytest.approx(ref.pvalue, rel=1e-10)
        pvals.append(ref.pvalue)
    reject, adj, _, _ = multipletests(pvals, alpha=0.05, method="fdr_by")
    assert [a.p_adjusted for a in res.annotators] == pytest.approx(list(adj), rel=1e-10)
    assert [a.rejected for a in res.annotators] == list(reject)
    assert res.winning_rate == pytest.approx(reject.mean())
    assert res.advantage_probability == pytest.approx(
        np.mean([a.rho_judge for a in res.annotators])
    )


def test_alt_test_untestable_annotator_counts_against_the_judge() -> None:
    t = panel(60, 0.0, 2, n_humans=3)
    codes = t.codes.copy()
    codes[:, 2] = -1  # h2 labelled nothing
    t2 = RatingTable.from_codes(codes, CATS, raters=t.raters)
    res = alt_test(t2, "judge", ["h0", "h1", "h2"])
    h2 = res.annotators[2]
    assert h2.n == 0 and h2.p_value is None and not h2.rejected and h2.reason
    assert res.winning_rate is not None and res.winning_rate <= 2 / 3
    import json

    json.dumps(res.as_json(), allow_nan=False)
