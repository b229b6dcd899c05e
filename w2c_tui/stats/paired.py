"""Paired bootstrap comparisons: a judge against the human ceiling on the same resamples."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy.typing as npt

from w2c_tui.stats.agreement import alpha_statistic, package_alpha
from w2c_tui.stats.pairwise import mean_kappa_statistic
from w2c_tui.stats.resample import bootstrap as run_bootstrap
from w2c_tui.stats.resample import check_bootstrap_args, estimate
from w2c_tui.stats.results import Estimate, JudgeComparison
from w2c_tui.stats.sufficient import Statistic, difference
from w2c_tui.stats.table import RatingTable


def paired_difference(
    a: Statistic,
    b: Statistic,
    *,
    bootstrap: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    patterns: npt.ArrayLike | None = None,
) -> Estimate:
    """a − b with a percentile interval from resamples shared by both terms.

    Both statistics must be built on the same units (e.g. two rater subsets of one table).
    A resample where either term is undefined is degenerate for the difference (counted).
    ``patterns`` is passed to ``bootstrap`` (the table's ``patterns()``; optional).
    """
    check_bootstrap_args(bootstrap, level)
    d = difference(a, b)
    reps = run_bootstrap({"d": d}, B=bootstrap, seed=seed, patterns=patterns) if bootstrap else None
    return estimate(d, reps["d"] if reps else None, level)


def _check_panel(table: RatingTable, judge: str, humans: Sequence[str]) -> tuple[str, ...]:
    if isinstance(humans, str):
        raise TypeError("humans must be a sequence of rater names, not one string")
    hs = tuple(humans)
    table.rater_index(judge)
    for h in hs:
        table.rater_index(h)
    if judge in hs:
        raise ValueError(f"the judge {judge!r} is also listed among the humans")
    if len(set(hs)) != len(hs):
        raise ValueError("a human is listed twice")
    return hs


def judge_vs_humans(
    table: RatingTable,
    judge: str,
    humans: Sequence[str],
    *,
    bootstrap: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> JudgeComparison:
    """Mean κ(judge, human_i) vs mean κ(human_i, human_j), and α(humans + judge) vs α(humans).

    The population resampled is the units with ≥ 1 rating from a human: the population of
    the humans' own reliability (``agreement_summary`` of the humans' table, same unit order),
    so with the same B and seed α(humans) gets the very resamples, and the very interval, it
    gets there. A unit the judge rated alone is left out: it pairs with no one, so it changes
    no estimate here, only which resamples are drawn. All six estimates, and the two
    differences, use the same resamples. Each pairwise κ is on its pair's overlap; the means
    run over the pairs defined on the data (see ``mean_kappa_statistic``). α values are the
    ``krippendorff`` package's.
    """
    check_bootstrap_args(bootstrap, level)
    hs = _check_panel(table, judge, humans)
    both = table.subset([*hs, judge]).rated_by(hs)
    only_h = both.subset(hs)
    k_jh = mean_kappa_statistic(both, [(judge, h) for h in hs])
    k_hh = mean_kappa_statistic(both, list(combinations(hs, 2)))
    a_h = alpha_statistic(only_h)
    a_all = alpha_statistic(both)
    stats = {
        "k_jh": k_jh,
        "k_hh": k_hh,
        "dk": difference(k_jh, k_hh),
        "a_h": a_h,
        "a_all": a_all,
        "da": difference(a_all, a_h),
    }
    reps = (
        run_bootstrap(stats, B=bootstrap, seed=seed, patterns=both.patterns())
        if bootstrap
        else None
    )

    def est(key: str, point: tuple[float | None, str | None] | None = None) -> Estimate:
        return estimate(stats[key], reps[key] if reps else None, level, point)

    pa_h, pa_all = package_alpha(only_h, a_h), package_alpha(both, a_all)
    if pa_h[0] is not None and pa_all[0] is not None:
        d_point: tuple[float | None, str | None] = (pa_all[0] - pa_h[0], None)
    else:
        d_point = stats["da"].point()
    return JudgeComparison(
        judge=judge,
        humans=hs,
        kappa_judge_human=est("k_jh"),
        kappa_human_human=est("k_hh"),
        delta_kappa=est("dk"),
        alpha_humans=est("a_h", pa_h),
        alpha_with_judge=est("a_all", pa_all),
        delta_alpha=est("da", d_point),
    )
