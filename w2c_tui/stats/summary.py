"""``agreement_summary``: the JSON document behind ``w2c agreement --json`` (a contract)."""

from __future__ import annotations

from itertools import combinations

from w2c_tui.stats.agreement import package_alpha
from w2c_tui.stats.pairwise import pair_statistics
from w2c_tui.stats.reference import kappa_point
from w2c_tui.stats.resample import bootstrap as run_bootstrap
from w2c_tui.stats.resample import check_bootstrap_args, estimate, fraction_below
from w2c_tui.stats.sufficient import Statistic, UnitStats
from w2c_tui.stats.table import RatingTable

ALPHA_THRESHOLDS = {"0.667": 0.667, "0.800": 0.800}
LEVEL = 0.95


def agreement_summary(
    table: RatingTable, *, bootstrap: int = 1000, seed: int = 0
) -> dict[str, object]:
    """Every multi-rater coefficient of ``table`` with 95% unit-bootstrap CIs, as plain JSON.

    Keys (a contract of ``w2c agreement --json``; extra keys may be added, none removed):
    ``n_items`` (units with ≥ 1 rating), ``n_raters`` (raters in the table), ``categories``;
    ``krippendorff_alpha``, ``fleiss_kappa``, ``gwet_ac1``, ``percent_agreement`` as
    {"value", "ci", "n", "reason", "degenerate"}; ``pairwise``: [{"a", "b", "n",
    "cohen_kappa", "percent_agreement"}]; ``per_category``: {category: {"specific_agreement",
    "alpha", "kappa"}} (α and κ one-vs-rest); ``bootstrap``: {"B", "seed", "level"};
    ``p_alpha_below``: {"0.667", "0.800"}: the bootstrap share of α below each threshold
    (null without bootstrap). Every estimate uses the same resamples of the rated units.
    Values are plain floats or null, never NaN.
    """
    check_bootstrap_args(bootstrap, LEVEL)
    rated = table.rated()
    us = UnitStats(rated.counts())
    stats: dict[str, Statistic] = {
        "krippendorff_alpha": us.alpha(),
        "fleiss_kappa": us.fleiss(),
        "gwet_ac1": us.ac1(),
        "percent_agreement": us.percent_agreement(),
    }
    for k, c in enumerate(rated.categories):
        stats[f"sa:{k}"] = us.specific(k, c)
        stats[f"alpha:{k}"] = us.alpha_vs_rest(k, c)
        stats[f"kappa:{k}"] = us.kappa_vs_rest(k, c)
    pairs = list(combinations(range(rated.n_raters), 2))
    for i, j in pairs:
        kap, agr = pair_statistics(rated.codes[:, i], rated.codes[:, j], rated.q)
        stats[f"ck:{i},{j}"], stats[f"pa:{i},{j}"] = kap, agr
    reps = (
        run_bootstrap(stats, B=bootstrap, seed=seed, patterns=rated.patterns())
        if bootstrap
        else None
    )

    def est(key: str, point: tuple[float | None, str | None] | None = None) -> dict[str, object]:
        return estimate(stats[key], reps[key] if reps else None, LEVEL, point).as_json()

    alpha_reps = reps["krippendorff_alpha"] if reps else None
    doc: dict[str, object] = {
        "n_items": rated.n_units,
        "n_raters": table.n_raters,
        "categories": list(table.categories),
        "krippendorff_alpha": est(
            "krippendorff_alpha", package_alpha(rated, stats["krippendorff_alpha"])
        ),
        "fleiss_kappa": est("fleiss_kappa"),
        "gwet_ac1": est("gwet_ac1"),
        "percent_agreement": est("percent_agreement"),
        "pairwise": [
            {
                "a": rated.raters[i],
                "b": rated.raters[j],
                "n": stats[f"ck:{i},{j}"].n,
                "cohen_kappa": est(
                    f"ck:{i},{j}", kappa_point(rated.codes[:, i], rated.codes[:, j], rated.q)
                ),
                "percent_agreement": est(f"pa:{i},{j}"),
            }
            for i, j in pairs
        ],
        "per_category": {
            c: {
                "specific_agreement": est(f"sa:{k}"),
                "alpha": est(f"alpha:{k}"),
                "kappa": est(f"kappa:{k}"),
            }
            for k, c in enumerate(rated.categories)
        },
        "bootstrap": {"B": int(bootstrap), "seed": int(seed), "level": LEVEL},
        "p_alpha_below": {
            key: fraction_below(alpha_reps, thr) for key, thr in ALPHA_THRESHOLDS.items()
        },
    }
    return doc
