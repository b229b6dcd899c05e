"""Agreement of several labels of the same units with intervals from one bootstrap: every
statistic of every table (α, percent agreement, each pair's κ and p_o) is computed on the same
resamples of the units, so their intervals are comparable and paired."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from w2c_tui.stats.agreement import package_alpha
from w2c_tui.stats.pairwise import pair_statistics
from w2c_tui.stats.reference import kappa_point
from w2c_tui.stats.resample import bootstrap as run_bootstrap
from w2c_tui.stats.resample import check_bootstrap_args, estimate
from w2c_tui.stats.results import Estimate, PairResult
from w2c_tui.stats.sufficient import FloatArray, Statistic, UnitStats
from w2c_tui.stats.table import RatingTable


@dataclass(frozen=True)
class TableAgreement:
    """One table's Krippendorff α (nominal), percent agreement and rater pairs."""

    alpha: Estimate
    percent: Estimate
    pairs: tuple[PairResult, ...]


def _patterns(tables: Mapping[str, RatingTable], n_units: int) -> np.ndarray | None:
    """Units with the same codes in every table share an id (the bootstrap sums them)."""
    if n_units == 0:
        return None
    codes = np.hstack([t.codes.astype(np.int64) for t in tables.values()])
    _, inverse = np.unique(codes, axis=0, return_inverse=True)
    return np.asarray(inverse, dtype=np.int64).reshape(-1)


def _statistics(key: str, table: RatingTable) -> dict[str, Statistic]:
    units = UnitStats(table.counts())
    stats = {f"{key}|alpha": units.alpha(), f"{key}|percent": units.percent_agreement()}
    for i, j in combinations(range(table.n_raters), 2):
        kappa, agreement = pair_statistics(table.codes[:, i], table.codes[:, j], table.q)
        stats[f"{key}|k{i},{j}"], stats[f"{key}|p{i},{j}"] = kappa, agreement
    return stats


def shared_agreement(
    tables: Mapping[str, RatingTable],
    *,
    bootstrap: int = 0,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, TableAgreement]:
    """α, percent agreement and pairwise κ / p_o of each table, the intervals from ONE
    `resample.bootstrap` call over the tables' common units (the same rows, in the same order,
    in every table; a unit without a rating in one table counts for nothing there).

    Point values are the single-table functions' own (α from the krippendorff package, κ from
    sklearn on the pair's overlap); `n` is each statistic's units (pairable units, the pair's
    overlap). Without bootstrap (B = 0) there are no intervals."""
    check_bootstrap_args(bootstrap, level)
    sizes = {t.n_units for t in tables.values()}
    if len(sizes) > 1:
        raise ValueError(f"the tables have different units (sizes {sorted(sizes)})")
    n_units = sizes.pop() if sizes else 0
    stats: dict[str, Statistic] = {}
    for key, table in tables.items():
        stats.update(_statistics(key, table))
    reps: dict[str, FloatArray] | None = None
    if bootstrap and stats:
        reps = run_bootstrap(stats, B=bootstrap, seed=seed, patterns=_patterns(tables, n_units))

    def est(name: str, point: tuple[float | None, str | None] | None = None) -> Estimate:
        return estimate(stats[name], reps[name] if reps else None, level, point)

    out: dict[str, TableAgreement] = {}
    for key, table in tables.items():
        alpha = f"{key}|alpha"
        pairs = tuple(
            PairResult(
                a=table.raters[i],
                b=table.raters[j],
                n=stats[f"{key}|k{i},{j}"].n,
                cohen_kappa=est(
                    f"{key}|k{i},{j}", kappa_point(table.codes[:, i], table.codes[:, j], table.q)
                ),
                percent_agreement=est(f"{key}|p{i},{j}"),
            )
            for i, j in combinations(range(table.n_raters), 2)
        )
        out[key] = TableAgreement(
            alpha=est(alpha, package_alpha(table.rated(), stats[alpha])),
            percent=est(f"{key}|percent"),
            pairs=pairs,
        )
    return out
