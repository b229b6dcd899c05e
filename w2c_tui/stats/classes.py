"""Per-class agreement of two raters on the same units: one class against the rest.

Cohen's κ of the binarised labels ("k" vs "not k") is what a reader checks against the
confusion matrix, so it is computed on exactly the matrix's units (both raters labelled) and
its point value is scikit-learn's `cohen_kappa_score` of those binary vectors. α one-vs-rest
and specific agreement (for two raters, the class's F1) use the same units. All intervals come
from the same unit resamples.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.pairwise import pair_statistics
from w2c_tui.stats.reference import kappa_point
from w2c_tui.stats.resample import bootstrap as run_bootstrap
from w2c_tui.stats.resample import check_bootstrap_args, estimate
from w2c_tui.stats.results import Estimate
from w2c_tui.stats.sufficient import Statistic, UnitStats


def per_class(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    categories: Sequence[str],
    *,
    bootstrap: int = 0,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, dict[str, Estimate]]:
    """Per category: `kappa` (Cohen, binarised), `alpha` (one-vs-rest), `specific` (PS_k).

    `a` and `b` are code vectors of the same units, both labelled on every unit (codes
    0..q−1); units where either is missing must be left out by the caller, as the confusion
    matrix leaves them out.
    """
    check_bootstrap_args(bootstrap, level)
    ca, cb = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    if ca.shape != cb.shape or (ca < 0).any() or (cb < 0).any():
        raise ValueError("a and b must be complete code vectors of the same units")
    q = len(categories)
    counts = np.zeros((ca.size, q), dtype=np.float64)
    np.add.at(counts, (np.arange(ca.size), ca), 1)
    np.add.at(counts, (np.arange(cb.size), cb), 1)
    us = UnitStats(counts)
    stats: dict[str, Statistic] = {}
    points: dict[str, tuple[float | None, str | None]] = {}
    for k, c in enumerate(categories):
        binary_a, binary_b = (ca == k).astype(np.int64), (cb == k).astype(np.int64)
        stats[f"kappa:{c}"], _ = pair_statistics(binary_a, binary_b, 2)
        points[f"kappa:{c}"] = kappa_point(binary_a, binary_b, 2)
        stats[f"alpha:{c}"] = us.alpha_vs_rest(k, c)
        stats[f"specific:{c}"] = us.specific(k, c)
    reps = run_bootstrap(stats, B=bootstrap, seed=seed) if bootstrap and ca.size else None
    out: dict[str, dict[str, Estimate]] = {}
    for c in categories:
        out[c] = {
            name: estimate(
                stats[f"{name}:{c}"],
                reps[f"{name}:{c}"] if reps else None,
                level,
                points.get(f"{name}:{c}"),
            )
            for name in ("kappa", "alpha", "specific")
        }
    return out
