"""Multi-rater nominal agreement: Krippendorff's α, generalised Fleiss κ, AC1, p_a, per class."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.resample import bootstrap as run_bootstrap
from w2c_tui.stats.resample import check_bootstrap_args, estimate
from w2c_tui.stats.results import Estimate
from w2c_tui.stats.sufficient import FloatArray, Statistic, UnitStats
from w2c_tui.stats.table import RatingTable


def coincidence_matrix(counts: npt.ArrayLike) -> FloatArray:
    """Krippendorff's coincidence matrix o = Σ_u (v_u v_uᵀ − diag v_u)/(m_u − 1), m_u ≥ 2."""
    c = np.asarray(counts, dtype=np.float64)
    m = c.sum(axis=1)
    keep = m >= 2
    v = c[keep]
    outer = v[:, :, None] * v[:, None, :]
    idx = np.arange(c.shape[1])
    outer[:, idx, idx] -= v
    return np.asarray((outer / (m[keep] - 1.0)[:, None, None]).sum(axis=0), dtype=np.float64)


def alpha_statistic(table: RatingTable) -> Statistic:
    """Nominal α as a reducer of per-unit coincidence margins (the vectorised §9 recipe)."""
    return UnitStats(table.counts()).alpha()


def package_alpha(table: RatingTable, stat: Statistic) -> tuple[float | None, str | None]:
    """α from the ``krippendorff`` package, after guarding the cases where it is undefined."""
    value, reason = stat.point()
    if value is None:
        return None, reason
    import krippendorff

    # The package wants reliability_data[raters][units] (M × N): the TRANSPOSE of our table.
    data = table.codes.T.astype(np.float64)
    data[data < 0] = np.nan
    # numpy's error state, not the warnings filters: those are one global list for every thread,
    # and an "error" filter set here turned a warning of the dashboard's other worker thread
    # (sklearn's on a constant rater) into an exception that stopped the app
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        try:
            got = float(
                krippendorff.alpha(
                    reliability_data=data,
                    level_of_measurement="nominal",
                    value_domain=list(range(table.q)),
                )
            )
        except (ValueError, ArithmeticError) as exc:  # pragma: no cover
            return None, f"krippendorff package: {exc}"
    if not np.isfinite(got):  # pragma: no cover - guarded above
        return None, "krippendorff package returned a non-finite value"
    return got, None


def _single(
    table: RatingTable, stat: Statistic, bootstrap: int, seed: int, level: float
) -> dict[str, FloatArray] | None:
    check_bootstrap_args(bootstrap, level)
    if bootstrap == 0:
        return None
    return run_bootstrap({"s": stat}, B=bootstrap, seed=seed, patterns=table.patterns())


def krippendorff_alpha(
    table: RatingTable, *, bootstrap: int = 0, seed: int = 0, level: float = 0.95
) -> Estimate:
    """Krippendorff's α, nominal, missing data native (units with < 2 ratings drop out).

    The value comes from the ``krippendorff`` package (layout raters × units, float codes with
    NaN for missing, ``value_domain`` = every category code); the bootstrap interval from the
    equivalent vectorised coincidence formula. ``n`` = pairable units (≥ 2 ratings).
    """
    rated = table.rated()
    stat = alpha_statistic(rated)
    reps = _single(rated, stat, bootstrap, seed, level)
    return estimate(stat, reps["s"] if reps else None, level, package_alpha(rated, stat))


def _coefficient(
    table: RatingTable, which: str, bootstrap: int, seed: int, level: float
) -> Estimate:
    rated = table.rated()
    stat: Statistic = getattr(UnitStats(rated.counts()), which)()
    reps = _single(rated, stat, bootstrap, seed, level)
    return estimate(stat, reps["s"] if reps else None, level)


def fleiss_kappa(
    table: RatingTable, *, bootstrap: int = 0, seed: int = 0, level: float = 0.95
) -> Estimate:
    """Fleiss' κ generalised to varying raters per unit (Gwet 2014).

    κ = (p_a − p_e)/(1 − p_e); p_a = pairwise agreement over units with ≥ 2 ratings;
    p_e = Σ_k π_k², π_k = mean over units with ≥ 1 rating of r_ik/r_i. Equals the classic
    Fleiss κ when every unit has the same number of ratings.
    """
    return _coefficient(table, "fleiss", bootstrap, seed, level)


def gwet_ac1(
    table: RatingTable, *, bootstrap: int = 0, seed: int = 0, level: float = 0.95
) -> Estimate:
    """Gwet's AC1: p_e = Σ_k π_k(1 − π_k)/(q − 1) with q = ALL the table's categories.

    When only one category is used (and q ≥ 2) p_e = 0 and AC1 = p_a = 1: defined, unlike κ/α.
    """
    return _coefficient(table, "ac1", bootstrap, seed, level)


def percent_agreement(
    table: RatingTable, *, bootstrap: int = 0, seed: int = 0, level: float = 0.95
) -> Estimate:
    """Pairwise percent agreement p_a over the units with ≥ 2 ratings."""
    return _coefficient(table, "percent_agreement", bootstrap, seed, level)


def specific_agreement(
    table: RatingTable, *, bootstrap: int = 0, seed: int = 0, level: float = 0.95
) -> dict[str, Estimate]:
    """PS_k = Σ_i r_ik(r_ik − 1) / Σ_i r_ik(r_i − 1) for every category (2 raters: the F1)."""
    rated = table.rated()
    us = UnitStats(rated.counts())
    stats = {c: us.specific(k, c) for k, c in enumerate(rated.categories)}
    check_bootstrap_args(bootstrap, level)
    reps = (
        run_bootstrap(stats, B=bootstrap, seed=seed, patterns=rated.patterns())
        if bootstrap
        else None
    )
    return {c: estimate(s, reps[c] if reps else None, level) for c, s in stats.items()}


def one_vs_rest(
    table: RatingTable, *, bootstrap: int = 0, seed: int = 0, level: float = 0.95
) -> dict[str, dict[str, Estimate]]:
    """Per category k: α and generalised Fleiss κ of the binary recoding "k" vs "not k"."""
    rated = table.rated()
    us = UnitStats(rated.counts())
    stats: dict[str, Statistic] = {}
    for k, c in enumerate(rated.categories):
        stats[f"alpha:{c}"] = us.alpha_vs_rest(k, c)
        stats[f"kappa:{c}"] = us.kappa_vs_rest(k, c)
    check_bootstrap_args(bootstrap, level)
    reps = (
        run_bootstrap(stats, B=bootstrap, seed=seed, patterns=rated.patterns())
        if bootstrap
        else None
    )
    return {
        c: {
            m: estimate(stats[f"{m}:{c}"], reps[f"{m}:{c}"] if reps else None, level)
            for m in ("alpha", "kappa")
        }
        for c in rated.categories
    }
