"""Agreement statistics: pure functions over rating tables (numpy, scipy, krippendorff)."""

from w2c_tui.stats.agreement import (
    alpha_statistic,
    coincidence_matrix,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    one_vs_rest,
    percent_agreement,
    specific_agreement,
)
from w2c_tui.stats.alt_test import alt_test
from w2c_tui.stats.homogeneity import stuart_maxwell
from w2c_tui.stats.paired import judge_vs_humans, paired_difference
from w2c_tui.stats.pairwise import (
    cohen_kappa,
    confusion,
    mean_kappa_statistic,
    pair_statistics,
    pairwise,
)
from w2c_tui.stats.resample import bootstrap, fraction_below, resample_indices
from w2c_tui.stats.results import (
    AltTestAnnotator,
    AltTestResult,
    Estimate,
    JudgeComparison,
    PairResult,
    StuartMaxwellResult,
)
from w2c_tui.stats.sufficient import Statistic, UnitStats, difference
from w2c_tui.stats.summary import agreement_summary
from w2c_tui.stats.table import MISSING, RatingTable

__all__ = [
    "MISSING",
    "AltTestAnnotator",
    "AltTestResult",
    "Estimate",
    "JudgeComparison",
    "PairResult",
    "RatingTable",
    "Statistic",
    "StuartMaxwellResult",
    "UnitStats",
    "agreement_summary",
    "alpha_statistic",
    "alt_test",
    "bootstrap",
    "cohen_kappa",
    "coincidence_matrix",
    "confusion",
    "difference",
    "fleiss_kappa",
    "fraction_below",
    "gwet_ac1",
    "judge_vs_humans",
    "krippendorff_alpha",
    "mean_kappa_statistic",
    "one_vs_rest",
    "pair_statistics",
    "paired_difference",
    "pairwise",
    "percent_agreement",
    "resample_indices",
    "specific_agreement",
    "stuart_maxwell",
]
