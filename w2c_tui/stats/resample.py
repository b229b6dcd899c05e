"""Vectorised unit (item) bootstrap: batches of resamples as weight matrices times statistics."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.results import Estimate
from w2c_tui.stats.sufficient import FloatArray, Statistic

DEFAULT_B = 1000
DEFAULT_BATCH = 100
DRAW_ROWS = 10  # resamples per random draw: a 10 × N block stays cache-friendly
_I32 = np.iinfo(np.int32).max

IndexBlock = npt.NDArray[np.signedinteger[Any]]


def resample_indices(n_units: int, B: int, seed: int) -> Iterator[IndexBlock]:
    """The B resamples, as blocks of shape (≤ 10, n_units) of unit positions.

    Block after block from ``np.random.default_rng(seed).integers(0, n_units, (10, n_units))``
    (int32 when it fits; the last block is shorter). The naive per-resample reference loop in
    the tests walks the rows of these very blocks, so "same seed" means "same resamples";
    the resamples depend on (n_units, B, seed) only, not on the batch size of ``bootstrap``.
    """
    if n_units <= 0 or B <= 0:
        return
    rng = np.random.default_rng(seed)
    dtype = np.int32 if n_units <= _I32 else np.int64
    done = 0
    while done < B:
        b = min(DRAW_ROWS, B - done)
        yield rng.integers(0, n_units, size=(b, n_units), dtype=dtype)
        done += b


def weight_batches(
    n_units: int,
    B: int,
    seed: int,
    batch: int = DEFAULT_BATCH,
    groups: IndexBlock | None = None,
    n_cols: int | None = None,
) -> Iterator[FloatArray]:
    """W matrices (≤ batch × n_cols) of the resamples of ``resample_indices``, in order."""
    if batch <= 0:
        raise ValueError(f"batch must be positive, got {batch}")
    cols = n_units if n_cols is None else n_cols
    left = max(B, 0)
    buf = np.empty((min(batch, left), cols))
    fill = 0
    for block in resample_indices(n_units, B, seed):
        w = _counts(block, cols, groups)
        pos = 0
        while pos < w.shape[0]:
            take = min(w.shape[0] - pos, buf.shape[0] - fill)
            buf[fill : fill + take] = w[pos : pos + take]  # int counts -> float64
            fill, pos = fill + take, pos + take
            if fill == buf.shape[0]:
                yield buf
                left -= fill
                buf, fill = np.empty((min(batch, left), cols)), 0


def weights(index_block: IndexBlock, n_cols: int, groups: IndexBlock | None = None) -> FloatArray:
    """W (b × n_cols): how often each unit (or group of units) is in each resample of a block.

    One bincount over the whole block, no loop over resamples: resample j's unit u lands in
    cell j·n_cols + u, or j·n_cols + groups[u] when units are grouped by identical rows.
    """
    return _counts(index_block, n_cols, groups).astype(np.float64)


def _counts(
    index_block: IndexBlock, n_cols: int, groups: IndexBlock | None
) -> npt.NDArray[np.intp]:
    b = int(index_block.shape[0])
    dtype = np.int64 if n_cols * b > _I32 else np.int32
    if groups is not None:
        cells = groups[index_block].astype(dtype, copy=False)
    else:
        cells = index_block.astype(dtype, copy=True)
    np.add(cells, (np.arange(b, dtype=dtype) * n_cols)[:, None], out=cells)
    return np.bincount(cells.ravel(), minlength=n_cols * b).reshape(b, n_cols)


def _sparse() -> Any:
    from scipy import sparse  # type: ignore[import-untyped]

    return sparse


def _stack(blocks: dict[int, Any], rows: npt.NDArray[np.intp] | None, as_sparse: bool) -> Any:
    parts = [b[rows] if rows is not None else b for b in blocks.values()]
    if as_sparse:
        return _sparse().hstack(parts, format="csr")
    return np.ascontiguousarray(np.hstack(parts))


def bootstrap(
    statistics: Mapping[str, Statistic],
    *,
    B: int = DEFAULT_B,
    seed: int = 0,
    batch: int = DEFAULT_BATCH,
    patterns: npt.ArrayLike | None = None,
) -> dict[str, FloatArray]:
    """Replicates (B,) of every statistic over the SAME unit resamples; NaN = degenerate.

    Per batch of ≤ ``batch`` resamples: W (b × N) from one bincount of the resample indices,
    then T = W @ S for every distinct column block S (dense blocks stacked into one matrix,
    sparse one-hot blocks into one CSR matrix) and each statistic reduces its slice of T.

    ``patterns`` (optional, e.g. ``RatingTable.patterns()``) gives each unit an id such that
    units with equal ids have identical rows in every statistic's columns. W is then summed
    per pattern (b × U instead of b × N, from the same indices): T is unchanged up to float
    rounding, and with U ≪ N (5 raters × 4 classes: at most 5⁵ patterns) the products vanish.
    """
    sparse = _sparse()
    stats = dict(statistics)
    out: dict[str, FloatArray] = {name: np.full(max(B, 0), np.nan) for name in stats}
    if not stats or B <= 0:
        return out
    sizes = {s.n_units for s in stats.values()}
    if len(sizes) != 1:
        raise ValueError(f"statistics are on different unit sets (sizes {sorted(sizes)})")
    n_units = sizes.pop()
    if n_units == 0:
        return out  # no unit to resample: every replicate is degenerate

    groups: IndexBlock | None = None
    rows: npt.NDArray[np.intp] | None = None
    n_cols = n_units
    if patterns is not None:
        ids = np.asarray(patterns, dtype=np.int64).reshape(-1)
        if ids.shape != (n_units,) or (ids.size and ids.min() < 0):
            raise ValueError("patterns must give one non-negative id per unit")
        _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        if first.size * 2 <= n_units:  # grouping pays off
            groups = np.asarray(inverse, dtype=np.int32).reshape(-1)
            rows = np.asarray(first, dtype=np.intp)
            n_cols = int(first.size)

    dense: dict[int, Any] = {}
    sparse_blocks: dict[int, Any] = {}
    for s in stats.values():
        kind = sparse_blocks if sparse.issparse(s.columns) else dense
        kind.setdefault(id(s.columns), s.columns)
    where: dict[int, tuple[bool, int, int]] = {}
    for is_sparse, blocks in ((False, dense), (True, sparse_blocks)):
        pos = 0
        for key, block in blocks.items():
            where[key] = (is_sparse, pos, pos + int(block.shape[1]))
            pos += int(block.shape[1])
    d_all = _stack(dense, rows, as_sparse=False) if dense else None
    s_all = _stack(sparse_blocks, rows, as_sparse=True) if sparse_blocks else None

    start = 0
    for w in weight_batches(n_units, B, seed, batch, groups, n_cols):
        b = w.shape[0]
        totals = {
            False: w @ d_all if d_all is not None else None,
            True: np.asarray(w @ s_all) if s_all is not None else None,
        }
        for name, s in stats.items():
            is_sparse, lo, hi = where[id(s.columns)]
            src = totals[is_sparse]
            assert src is not None
            values, _ = s.reduce(np.ascontiguousarray(src[:, lo:hi]))
            out[name][start : start + b] = values
        start += b
    return out


def interval(
    replicates: FloatArray | None, level: float = 0.95
) -> tuple[tuple[float, float] | None, int]:
    """Percentile interval of the defined replicates, and how many were degenerate."""
    if replicates is None or replicates.size == 0:
        return None, 0
    ok = np.isfinite(replicates)
    degenerate = int((~ok).sum())
    if not ok.any():
        return None, degenerate
    lo, hi = np.quantile(replicates[ok], [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return (float(lo), float(hi)), degenerate


def estimate(
    stat: Statistic,
    replicates: FloatArray | None = None,
    level: float = 0.95,
    point: tuple[float | None, str | None] | None = None,
) -> Estimate:
    """An Estimate from a statistic's point value (or a given one) and its replicates."""
    value, reason = point if point is not None else stat.point()
    ci, degenerate = interval(replicates, level)
    if value is None:
        ci = None
    elif ci is None and degenerate and replicates is not None and replicates.size:
        reason = "every bootstrap resample was degenerate"
    return Estimate(value=value, ci=ci, reason=reason, n=stat.n, degenerate=degenerate)


def fraction_below(replicates: FloatArray | None, threshold: float) -> float | None:
    """Share of the defined bootstrap replicates strictly below ``threshold`` (None if none)."""
    if replicates is None:
        return None
    ok = replicates[np.isfinite(replicates)]
    if ok.size == 0:
        return None
    return float((ok < threshold).mean())


def check_bootstrap_args(B: int, level: float) -> None:
    if B < 0:
        raise ValueError(f"bootstrap B must be ≥ 0, got {B}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
