"""Two-rater agreement: Cohen's κ and percent agreement on each pair's overlap."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.reference import EMPTY_OVERLAP, SAME_SINGLE, kappa_point
from w2c_tui.stats.resample import bootstrap as run_bootstrap
from w2c_tui.stats.resample import check_bootstrap_args, estimate
from w2c_tui.stats.results import Estimate, PairResult
from w2c_tui.stats.sufficient import TOL, FloatArray, Guard, Statistic, Status
from w2c_tui.stats.table import RatingTable


def _codes(x: npt.ArrayLike, q: int, name: str) -> npt.NDArray[np.int64]:
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D code vector, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} must hold integer codes (-1 = missing), got {arr.dtype}")
    out = arr.astype(np.int64)
    if out.size and (out.min() < -1 or out.max() >= q):
        raise ValueError(f"{name} codes must lie in [-1, {q - 1}]")
    return out


def cells(a: npt.ArrayLike, b: npt.ArrayLike, q: int) -> npt.NDArray[np.int64]:
    """Confusion cell a·q + b of every unit both raters labelled; -1 elsewhere."""
    ca, cb = _codes(a, q, "a"), _codes(b, q, "b")
    if ca.shape != cb.shape:
        raise ValueError(f"a and b differ in length ({ca.size} vs {cb.size})")
    both = (ca >= 0) & (cb >= 0)
    return np.where(both, ca * q + cb, -1)


def confusion(a: npt.ArrayLike, b: npt.ArrayLike, q: int) -> npt.NDArray[np.int64]:
    """q × q counts (rows = a, columns = b) on the pairwise-complete overlap."""
    c = cells(a, b, q)
    return np.bincount(c[c >= 0], minlength=q * q).reshape(q, q)


def _onehot(cell_list: Sequence[npt.NDArray[np.int64]], q: int, n: int) -> Any:
    """Units × (P·q²) sparse one-hot of each pair's cell code."""
    from scipy import sparse  # type: ignore[import-untyped]

    rows, cols = [], []
    for p, c in enumerate(cell_list):
        ok = np.flatnonzero(c >= 0)
        rows.append(ok)
        cols.append(c[ok] + p * q * q)
    r = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    k = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
    data = np.ones(r.size, dtype=np.float64)
    return sparse.csr_matrix((data, (r, k)), shape=(n, len(cell_list) * q * q))


def _kappas(t: FloatArray, n_pairs: int, q: int) -> tuple[FloatArray, FloatArray, Status]:
    """Per-pair κ and p_o (B × P) from confusion totals (B × P·q²), status 1/2 = empty/p_e=1."""
    conf = t.reshape(t.shape[0], n_pairs, q, q)
    n = conf.sum(axis=(2, 3))
    agree = np.trace(conf, axis1=2, axis2=3)
    status = np.zeros(n.shape, dtype=np.int8)
    with np.errstate(divide="ignore", invalid="ignore"):
        po = agree / n
        pe = (conf.sum(axis=3) * conf.sum(axis=2)).sum(axis=2) / (n * n)
        kappa = (po - pe) / (1.0 - pe)
    status[1.0 - pe <= TOL] = 2
    status[n <= 0] = 1
    kappa[status != 0] = np.nan
    po[n <= 0] = np.nan
    return kappa, po, status


def pair_statistics(a: npt.ArrayLike, b: npt.ArrayLike, q: int) -> tuple[Statistic, Statistic]:
    """(Cohen κ, percent agreement) of two code vectors, sharing one one-hot block."""
    c = cells(a, b, q)
    n = int((c >= 0).sum())
    cols = _onehot([c], q, int(c.shape[0]))

    def kappa(t: FloatArray) -> tuple[FloatArray, Status]:
        k, _, s = _kappas(t, 1, q)
        return k[:, 0], s[:, 0]

    def agreement(t: FloatArray) -> tuple[FloatArray, Status]:
        _, po, s = _kappas(t, 1, q)
        g = Guard(t.shape[0])
        g.flag(s[:, 0] == 1, 1)
        return g.finish(po[:, 0])

    return (
        Statistic(cols, kappa, (EMPTY_OVERLAP, SAME_SINGLE), n),
        Statistic(cols, agreement, (EMPTY_OVERLAP,), n),
    )


def cohen_kappa(a: npt.ArrayLike, b: npt.ArrayLike, q: int) -> Estimate:
    """Cohen's κ of two code vectors (-1 = missing) on their pairwise-complete overlap.

    Confusion-matrix formula over ALL q categories, κ = (p_o − p_e)/(1 − p_e); identical to
    ``sklearn.metrics.cohen_kappa_score(a, b, labels=list(range(q)))`` on the overlap, which
    gives the point value (stats/reference.py), never the ``labels=`` subset trap. ``n`` =
    overlap size.
    """
    stat, _ = pair_statistics(a, b, q)
    return estimate(stat, point=kappa_point(a, b, q))


def pairwise(
    table: RatingTable, *, bootstrap: int = 0, seed: int = 0, level: float = 0.95
) -> list[PairResult]:
    """Every rater pair (table order): κ and p_o on the pair's overlap, with unit-bootstrap CIs.

    All pairs share the same resamples of the table's rated units (a resample changes each
    pair's overlap size, as it should).
    """
    check_bootstrap_args(bootstrap, level)
    rated = table.rated()
    stats: dict[str, Statistic] = {}
    pairs = list(combinations(range(rated.n_raters), 2))
    for i, j in pairs:
        k, p = pair_statistics(rated.codes[:, i], rated.codes[:, j], rated.q)
        stats[f"k{i},{j}"], stats[f"p{i},{j}"] = k, p
    reps = (
        run_bootstrap(stats, B=bootstrap, seed=seed, patterns=rated.patterns())
        if bootstrap
        else None
    )
    out = []
    for i, j in pairs:
        k, p = stats[f"k{i},{j}"], stats[f"p{i},{j}"]
        out.append(
            PairResult(
                a=rated.raters[i],
                b=rated.raters[j],
                n=k.n,
                cohen_kappa=estimate(
                    k,
                    reps[f"k{i},{j}"] if reps else None,
                    level,
                    kappa_point(rated.codes[:, i], rated.codes[:, j], rated.q),
                ),
                percent_agreement=estimate(p, reps[f"p{i},{j}"] if reps else None, level),
            )
        )
    return out


def mean_kappa_statistic(table: RatingTable, pairs: Sequence[tuple[str, str]]) -> Statistic:
    """Mean Cohen κ over ``pairs`` of raters, each pair on its own overlap.

    The mean runs over the pairs whose κ is defined on the data; a resample in which one of
    those pairs becomes undefined is degenerate (counted), so every replicate averages the
    same pairs as the point estimate.
    """
    q = table.q
    cl = [cells(table.column(a), table.column(b), q) for a, b in pairs]
    n_pairs = len(cl)
    cols = _onehot(cl, q, table.n_units)
    base, _, _ = _kappas(np.asarray(cols.sum(axis=0), dtype=np.float64).reshape(1, -1), n_pairs, q)
    use = np.isfinite(base[0])
    n_units = int((np.stack(cl) >= 0).any(axis=0).sum()) if cl else 0

    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        g = Guard(t.shape[0])
        if not use.any():
            g.flag(np.ones(t.shape[0], dtype=bool), 1)
            return g.finish(np.full(t.shape[0], np.nan))
        k, _, _ = _kappas(t, n_pairs, q)
        k = k[:, use]
        g.flag(np.asarray(~np.isfinite(k).all(axis=1), dtype=bool), 2)
        return g.finish(k.mean(axis=1))

    reasons = (
        "no pair of these raters has a defined Cohen κ",
        "a pair's κ was undefined in this resample",
    )
    return Statistic(cols, reduce, reasons, n_units)
