"""`shared_agreement`: several labels of the same units, every interval from one bootstrap.
Each interval equals a naive loop that recomputes every statistic on each resample of
`resample_indices` (the same draws), with the single-table functions and sklearn; units with
no rating of one label (rated in another) are in the draws and count for nothing there."""

from __future__ import annotations

import numpy as np
import pytest

from w2c_tui.stats import (
    RatingTable,
    krippendorff_alpha,
    percent_agreement,
    resample_indices,
)
from w2c_tui.stats.resample import interval
from w2c_tui.stats.shared import shared_agreement

pytestmark = pytest.mark.filterwarnings("error")

B, SEED = 150, 11
LEVELS = {"detect": ["yes", "no"], "category": list("abcdef"), "policy": ["retry", "skip", "stop"]}


def tables(n_units: int = 36, n_raters: int = 3, seed: int = 5) -> dict[str, RatingTable]:
    """Three labels of the same units; `policy` rated on the first half only."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, cats in LEVELS.items():
        truth = rng.integers(0, len(cats), size=n_units)
        codes = np.where(
            rng.random((n_units, n_raters)) < 0.3,
            rng.integers(0, len(cats), size=(n_units, n_raters)),
            truth[:, None],
        )
        codes[rng.random(codes.shape) < 0.2] = -1
        if name == "policy":
            codes[n_units // 2 :] = -1
        out[name] = RatingTable.from_codes(codes, cats)
    return out


def value(estimate: object) -> float:
    v = getattr(estimate, "value", None)
    return np.nan if v is None else float(v)


def naive(table: RatingTable) -> dict[str, np.ndarray]:
    """Every statistic of one table recomputed on each resample's own table."""
    from sklearn.metrics import cohen_kappa_score

    out: dict[str, list[float]] = {}
    for block in resample_indices(table.n_units, B, SEED):
        for idx in block:
            t = table.take(idx)
            row = {"alpha": value(krippendorff_alpha(t)), "pa": value(percent_agreement(t))}
            for i in range(t.n_raters):
                for j in range(i + 1, t.n_raters):
                    a, b = t.codes[:, i], t.codes[:, j]
                    both = (a >= 0) & (b >= 0)
                    same_single = np.unique(a[both]).size == 1 and np.array_equal(a[both], b[both])
                    row[f"k{i}{j}"] = (
                        cohen_kappa_score(a[both], b[both], labels=list(range(t.q)))
                        if both.any() and not same_single
                        else np.nan
                    )
                    row[f"p{i}{j}"] = float((a[both] == b[both]).mean()) if both.any() else np.nan
            for key, v in row.items():
                out.setdefault(key, []).append(v)
    return {key: np.array(v) for key, v in out.items()}


def close(got: tuple[float, float] | None, reps: np.ndarray) -> None:
    want, _ = interval(reps)
    assert got is not None and want is not None
    assert got == pytest.approx(want, abs=1e-9)


def test_every_interval_is_the_naive_loop_on_the_same_resamples() -> None:
    labelled = tables()
    shared = shared_agreement(labelled, bootstrap=B, seed=SEED)
    for name, table in labelled.items():
        reps = naive(table)
        got = shared[name]
        close(got.alpha.ci, reps["alpha"])
        close(got.percent.ci, reps["pa"])
        assert got.alpha.degenerate == int(np.isnan(reps["alpha"]).sum())
        assert got.alpha.value == pytest.approx(value(krippendorff_alpha(table)), abs=1e-12)
        assert got.alpha.n == int(((table.codes >= 0).sum(axis=1) >= 2).sum())
        for pair in got.pairs:
            i, j = table.raters.index(pair.a), table.raters.index(pair.b)
            close(pair.cohen_kappa.ci, reps[f"k{i}{j}"])
            close(pair.percent_agreement.ci, reps[f"p{i}{j}"])
            both = (table.codes[:, i] >= 0) & (table.codes[:, j] >= 0)
            assert pair.n == int(both.sum())
        assert len(got.pairs) == 3


def test_no_bootstrap_no_interval_and_tables_must_share_units() -> None:
    labelled = tables()
    plain = shared_agreement(labelled)
    assert all(r.alpha.ci is None and r.alpha.value is not None for r in plain.values())
    short = {"a": labelled["detect"], "b": labelled["category"].take(np.arange(10))}
    with pytest.raises(ValueError, match="different units"):
        shared_agreement(short, bootstrap=10)
