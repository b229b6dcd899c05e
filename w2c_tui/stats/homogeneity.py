"""Stuart–Maxwell test of marginal homogeneity for a q × q agreement table."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.results import StuartMaxwellResult


def _components(weights: npt.NDArray[np.float64]) -> list[list[int]]:
    """Connected components of the graph with an edge where weights[i, j] > 0."""
    q = weights.shape[0]
    seen = [False] * q
    comps: list[list[int]] = []
    for start in range(q):
        if seen[start]:
            continue
        stack, comp = [start], []
        seen[start] = True
        while stack:
            i = stack.pop()
            comp.append(i)
            for j in np.flatnonzero(weights[i] > 0).tolist():
                if not seen[j]:
                    seen[j] = True
                    stack.append(j)
        comps.append(sorted(comp))
    return comps


def stuart_maxwell(
    confusion: npt.ArrayLike, categories: Sequence[str] | None = None
) -> StuartMaxwellResult:
    """Stuart–Maxwell χ² = dᵀ S⁻¹ d, d the first q − 1 differences of row and column margins.

    S_ii = n_i+ + n_+i − 2 n_ii, S_ij = −(n_ij + n_ji). A category with no off-diagonal cell
    (S_ii = 0) has d_i = 0 and makes S singular (statsmodels then returns NaN): it is dropped
    and named in ``dropped``. Should the remaining categories split into groups that never
    disagree with each other, S is still singular; the statistic is then the sum of the
    groups' statistics, with df = Σ (group size − 1) (identical to the usual test when the
    table is connected). With no off-diagonal cell at all the test is undefined (None).
    """
    t = np.asarray(confusion, dtype=np.float64)
    if t.ndim != 2 or t.shape[0] != t.shape[1]:
        raise ValueError(f"confusion must be a square q × q table, got shape {t.shape}")
    if t.size and (t.min() < 0 or not np.isfinite(t).all()):
        raise ValueError("confusion must hold finite non-negative counts")
    q = t.shape[0]
    names = tuple(categories) if categories is not None else tuple(str(k) for k in range(q))
    if len(names) != q:
        raise ValueError(f"{len(names)} category names for a {q} × {q} table")
    n = round(float(t.sum()))
    off = t + t.T
    np.fill_diagonal(off, 0.0)
    keep = np.flatnonzero(off.sum(axis=1) > 0)
    dropped = tuple(names[k] for k in range(q) if k not in set(keep.tolist()))
    if keep.size < 2:
        return StuartMaxwellResult(
            statistic=None,
            df=0,
            p_value=None,
            dropped=dropped,
            reason="no off-diagonal cell: the margins are identical and the test is undefined",
            n=n,
        )
    from scipy import stats  # type: ignore[import-untyped]

    d_all = t.sum(axis=1) - t.sum(axis=0)
    chi2, df = 0.0, 0
    sub = off[np.ix_(keep, keep)]
    for comp in _components(sub):
        ix = keep[comp]
        w = off[np.ix_(ix, ix)]
        s = np.diag(w.sum(axis=1)) - w
        d = d_all[ix][:-1]
        chi2 += float(d @ np.linalg.solve(s[:-1, :-1], d))
        df += len(ix) - 1
    return StuartMaxwellResult(
        statistic=chi2,
        df=df,
        p_value=float(stats.chi2.sf(chi2, df)),
        dropped=dropped,
        reason=(
            f"dropped categories without off-diagonal cells: {', '.join(dropped)}"
            if dropped
            else None
        ),
        n=n,
    )
