"""Coefficients written as reducers of summed per-unit sufficient statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
Status = npt.NDArray[np.int8]
Reducer = Callable[[FloatArray], tuple[FloatArray, Status]]

TOL = 1e-12

NO_PAIRABLE = "no unit has two or more ratings"
ONE_CATEGORY = "only one category observed: chance agreement is 1"
ONE_CATEGORY_ALPHA = "only one category observed: expected disagreement is 0"
FEW_CATEGORIES = "fewer than two categories: AC1 needs q ≥ 2"


@dataclass(frozen=True, eq=False)
class Statistic:
    """A coefficient as ``reduce(W @ columns)``.

    Every coefficient here is a function of the column totals T = Σ_i w_i · S[i, :] of a
    per-unit statistic matrix S. With w = 1 that is the point estimate; with w = a unit
    bootstrap resample's multiplicities it is that resample's estimate, so the point value and
    the vectorised bootstrap (W @ S for a batch of resamples, ``resample.py``) share one formula.

    ``columns`` is a (units × k) float64 ndarray or scipy.sparse CSR matrix; ``reduce`` maps
    totals (B × k) to values (B,) (NaN where undefined) and a status (B,) int8: 0 = defined,
    s > 0 = undefined for ``reasons[s - 1]``. ``n`` is the number of units that enter.
    """

    columns: Any
    reduce: Reducer
    reasons: tuple[str, ...]
    n: int

    @property
    def n_units(self) -> int:
        return int(self.columns.shape[0])

    def totals(self) -> FloatArray:
        """Column totals with unit weights, shape (1, k)."""
        return np.asarray(self.columns.sum(axis=0), dtype=np.float64).reshape(1, -1)

    def point(self) -> tuple[float | None, str | None]:
        """The value on the data itself, or None and the reason it is undefined."""
        values, status = self.reduce(self.totals())
        if status[0]:
            return None, self.reasons[int(status[0]) - 1]
        return float(values[0]), None


class Guard:
    """Collects per-resample "undefined" flags; the first flag raised wins."""

    def __init__(self, b: int) -> None:
        self.status: Status = np.zeros(b, dtype=np.int8)

    def flag(self, condition: npt.NDArray[np.bool_], code: int) -> None:
        self.status[(self.status == 0) & condition] = code

    def finish(self, values: FloatArray) -> tuple[FloatArray, Status]:
        out = np.array(values, dtype=np.float64, copy=True).reshape(-1)
        out[self.status != 0] = np.nan
        return out, self.status


def _pairable(
    counts: npt.NDArray[np.int64],
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    r = counts.sum(axis=1).astype(np.float64)
    return counts.astype(np.float64), r, r >= 2


class UnitStats:
    """Per-unit sufficient statistics of a counts matrix r_ik (units × q) and the coefficients.

    Column blocks are built once and shared by the statistics that read them, so the
    bootstrap engine multiplies each block only once per batch.
    """

    def __init__(self, counts: npt.ArrayLike) -> None:
        c = np.asarray(counts, dtype=np.int64)
        if c.ndim != 2:
            raise ValueError(f"counts must be (units × categories), got shape {c.shape}")
        if c.size and c.min() < 0:
            raise ValueError("counts must be non-negative")
        self.counts = c
        self.q = int(c.shape[1])
        r = c.sum(axis=1)
        self.n_pairable = int((r >= 2).sum())
        self.n_rated = int((r >= 1).sum())

    # -------------------------------------------------------------- column blocks
    @cached_property
    def alpha_columns(self) -> FloatArray:
        """[r_ik · 1(r_i≥2) for k] + [r_ik (r_ik − 1)/(r_i − 1) · 1(r_i≥2) for k]: n_c and o_cc."""
        rc, r, pair = _pairable(self.counts)
        q = self.q
        out = np.zeros((rc.shape[0], 2 * q))
        out[pair, :q] = rc[pair]
        out[pair, q:] = rc[pair] * (rc[pair] - 1.0) / (r[pair] - 1.0)[:, None]
        return out

    @cached_property
    def gwet_columns(self) -> FloatArray:
        """[1(r≥2), pa_i·1(r≥2), 1(r≥1), r_ik/r_i for k, binary pa_i(k vs rest)·1(r≥2) for k]."""
        rc, r, pair = _pairable(self.counts)
        q = self.q
        out = np.zeros((rc.shape[0], 3 + 2 * q))
        rated = r >= 1
        out[:, 0] = pair
        denom = r[pair] * (r[pair] - 1.0)
        out[pair, 1] = (rc[pair] * (rc[pair] - 1.0)).sum(axis=1) / denom
        out[:, 2] = rated
        out[rated, 3 : 3 + q] = rc[rated] / r[rated][:, None]
        rest = r[pair][:, None] - rc[pair]
        out[pair, 3 + q :] = (rc[pair] * (rc[pair] - 1.0) + rest * (rest - 1.0)) / denom[:, None]
        return out

    @cached_property
    def specific_columns(self) -> FloatArray:
        """[r_ik (r_ik − 1) for k] + [r_ik (r_i − 1) for k]."""
        rc, r, _ = _pairable(self.counts)
        return np.hstack([rc * (rc - 1.0), rc * (r[:, None] - 1.0)])

    # -------------------------------------------------------------- coefficients
    def alpha(self) -> Statistic:
        """Krippendorff's α (nominal) from the coincidence matrix's diagonal and margins."""
        q = self.q

        def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
            nc = t[:, :q]
            n = nc.sum(axis=1)
            agree = t[:, q:].sum(axis=1)
            de = n * n - (nc * nc).sum(axis=1)
            g = Guard(t.shape[0])
            g.flag(n <= 0, 1)
            g.flag(de <= TOL * n * n, 2)
            with np.errstate(divide="ignore", invalid="ignore"):
                return g.finish(1.0 - (n - 1.0) * (n - agree) / de)

        return Statistic(
            self.alpha_columns, reduce, (NO_PAIRABLE, ONE_CATEGORY_ALPHA), self.n_pairable
        )

    def alpha_vs_rest(self, k: int, name: str) -> Statistic:
        """α of the binary recoding "k" vs "not k", from the full coincidence matrix."""
        q = self.q

        def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
            n = t[:, :q].sum(axis=1)
            nk, okk = t[:, k], t[:, q + k]
            de = nk * (n - nk)
            g = Guard(t.shape[0])
            g.flag(n <= 0, 1)
            g.flag(de <= TOL * n * n, 2)
            with np.errstate(divide="ignore", invalid="ignore"):
                return g.finish(1.0 - (n - 1.0) * (nk - okk) / de)

        why = (
            f"category {name!r} is on none or all of the pairable values: "
            "expected disagreement is 0"
        )
        return Statistic(self.alpha_columns, reduce, (NO_PAIRABLE, why), self.n_pairable)

    def percent_agreement(self) -> Statistic:
        """Pairwise p_a = mean over units with ≥2 ratings of Σ_k r_ik(r_ik−1)/(r_i(r_i−1))."""

        def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
            g = Guard(t.shape[0])
            g.flag(t[:, 0] <= 0, 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                return g.finish(t[:, 1] / t[:, 0])

        return Statistic(self.gwet_columns, reduce, (NO_PAIRABLE,), self.n_pairable)

    def _chance_corrected(self, chance: Callable[[FloatArray], FloatArray], kind: str) -> Statistic:
        q = self.q

        def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
            g = Guard(t.shape[0])
            if kind == "ac1" and q < 2:
                g.flag(np.ones(t.shape[0], dtype=bool), 1)
            g.flag(t[:, 0] <= 0, 2)
            with np.errstate(divide="ignore", invalid="ignore"):
                pa = t[:, 1] / t[:, 0]
                pi = t[:, 3 : 3 + q] / t[:, 2:3]
                pe = chance(pi)
                g.flag(1.0 - pe <= TOL, 3)
                return g.finish((pa - pe) / (1.0 - pe))

        return Statistic(
            self.gwet_columns, reduce, (FEW_CATEGORIES, NO_PAIRABLE, ONE_CATEGORY), self.n_pairable
        )

    def fleiss(self) -> Statistic:
        """Gwet's generalised Fleiss κ: p_e = Σ π_k², π_k = mean over rated units of r_ik/r_i."""
        return self._chance_corrected(lambda pi: (pi * pi).sum(axis=1), "fleiss")

    def ac1(self) -> Statistic:
        """Gwet's AC1: p_e = Σ π_k (1 − π_k)/(q − 1) with q = ALL categories."""
        q = self.q
        return self._chance_corrected(lambda pi: (pi * (1.0 - pi)).sum(axis=1) / (q - 1), "ac1")

    def kappa_vs_rest(self, k: int, name: str) -> Statistic:
        """Generalised Fleiss κ of the binary recoding "k" vs "not k"."""
        q = self.q

        def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
            g = Guard(t.shape[0])
            g.flag(t[:, 0] <= 0, 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                pa = t[:, 3 + q + k] / t[:, 0]
                pi = t[:, 3 + k] / t[:, 2]
                pe = pi * pi + (1.0 - pi) * (1.0 - pi)
                g.flag(1.0 - pe <= TOL, 2)
                return g.finish((pa - pe) / (1.0 - pe))

        why = f"category {name!r} is on none or all of the rated units: chance agreement is 1"
        return Statistic(self.gwet_columns, reduce, (NO_PAIRABLE, why), self.n_pairable)

    def specific(self, k: int, name: str) -> Statistic:
        """Specific agreement PS_k = Σ_i r_ik(r_ik−1) / Σ_i r_ik(r_i−1)."""
        q = self.q

        def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
            g = Guard(t.shape[0])
            g.flag(t[:, q + k] <= 0, 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                return g.finish(t[:, k] / t[:, q + k])

        why = f"category {name!r} was never given on a unit with two or more ratings"
        return Statistic(self.specific_columns, reduce, (why,), self.n_pairable)


def difference(a: Statistic, b: Statistic) -> Statistic:
    """a − b as one statistic over the same units (for paired bootstrap intervals)."""
    if a.n_units != b.n_units:
        raise ValueError(f"paired statistics need the same units ({a.n_units} vs {b.n_units})")
    from scipy import sparse  # type: ignore[import-untyped]

    ka = int(a.columns.shape[1])
    if sparse.issparse(a.columns) or sparse.issparse(b.columns):
        cols: Any = sparse.hstack([a.columns, b.columns], format="csr")
    else:
        cols = np.hstack([a.columns, b.columns])
    shift = len(a.reasons)

    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        va, sa = a.reduce(t[:, :ka])
        vb, sb = b.reduce(t[:, ka:])
        status = np.where(sa != 0, sa, np.where(sb != 0, sb + shift, 0)).astype(np.int8)
        values = va - vb
        values[status != 0] = np.nan
        return values, status

    reasons = tuple(f"first term: {r}" for r in a.reasons) + tuple(
        f"second term: {r}" for r in b.reasons
    )
    return Statistic(cols, reduce, reasons, min(a.n, b.n))
