"""Two judge prompts on the same units, against the human reference: did the new one help?

Each prompt's reading of a unit is right (equal to the reference) or not; an invalid reading
is wrong. On the same units:

- the accuracy of each and their paired difference, and Cohen's κ of each against the
  reference and its difference, all with percentile intervals from one unit bootstrap (the
  same draws for every statistic: `resample.bootstrap`);
- McNemar's exact test on the discordant units: b = right with A and wrong with B, c = the
  reverse; p = min(1, 2·P(X ≤ min(b, c))), X ~ Binomial(b + c, 1/2) (as statsmodels'
  `mcnemar(exact=True)`); p = 1 with no discordant unit;
- the units that flipped: right → wrong (A right, B wrong) and wrong → right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.stats import binom  # type: ignore[import-untyped]

from w2c_tui.stats.metrics import N_LABELS, Codes, as_codes
from w2c_tui.stats.resample import bootstrap, check_bootstrap_args, estimate
from w2c_tui.stats.results import Estimate
from w2c_tui.stats.sufficient import FloatArray, Guard, Statistic, Status, difference

NO_UNITS: Final = "no unit with a reference and both readings"
ONE_CLASS: Final = "chance agreement is 1 (one class only): κ is not defined"


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p on the discordant counts."""
    n = b + c
    if n == 0:
        return 1.0
    return float(min(1.0, 2.0 * binom.cdf(min(b, c), n, 0.5)))


def _columns(ref: npt.NDArray[np.int64], pred: npt.NDArray[np.int64]) -> FloatArray:
    """[1, right, one-hot reading (4), one-hot reference (4)] per unit."""
    n = ref.shape[0]
    cols = np.zeros((n, 2 + 2 * N_LABELS))
    cols[:, 0] = 1.0
    cols[:, 1] = pred == ref
    valid = np.flatnonzero(pred >= 0)
    cols[valid, 2 + pred[valid]] = 1.0
    cols[np.arange(n), 2 + N_LABELS + ref] = 1.0
    return cols


def _accuracy(cols: FloatArray) -> Statistic:
    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        g = Guard(t.shape[0])
        g.flag(t[:, 0] <= 0, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return g.finish(t[:, 1] / t[:, 0])

    return Statistic(cols, reduce, (NO_UNITS,), cols.shape[0])


def _kappa(cols: FloatArray) -> Statistic:
    """Cohen's κ of the reading against the reference (an invalid reading is in no class)."""

    def reduce(t: FloatArray) -> tuple[FloatArray, Status]:
        g = Guard(t.shape[0])
        n = t[:, 0]
        g.flag(n <= 0, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            po = t[:, 1] / n
            pa = t[:, 2 : 2 + N_LABELS] / n[:, None]
            pr = t[:, 2 + N_LABELS :] / n[:, None]
            pe = (pa * pr).sum(axis=1)
            g.flag(1.0 - pe <= 1e-12, 2)
            return g.finish((po - pe) / (1.0 - pe))

    return Statistic(cols, reduce, (NO_UNITS, ONE_CLASS), cols.shape[0])


@dataclass(frozen=True)
class PromptComparison:
    """Prompt A against prompt B on the same units (see the module)."""

    n: int
    accuracy_a: Estimate
    accuracy_b: Estimate
    accuracy_difference: Estimate
    kappa_a: Estimate
    kappa_b: Estimate
    kappa_difference: Estimate
    right_to_wrong: list[int]
    """Positions of the units A read right and B wrong (a regression of B)."""
    wrong_to_right: list[int]
    p_mcnemar: float

    def as_json(self) -> dict[str, object]:
        """Plain JSON data (estimates as {value, ci, n, reason, degenerate})."""
        return {
            "n": self.n,
            "accuracy": {
                "a": self.accuracy_a.as_json(),
                "b": self.accuracy_b.as_json(),
                "difference": self.accuracy_difference.as_json(),
            },
            "kappa": {
                "a": self.kappa_a.as_json(),
                "b": self.kappa_b.as_json(),
                "difference": self.kappa_difference.as_json(),
            },
            "mcnemar": {
                "b_right_to_wrong": len(self.right_to_wrong),
                "c_wrong_to_right": len(self.wrong_to_right),
                "p_exact": self.p_mcnemar,
            },
        }


def compare_prompts(
    reference: Codes,
    a: Codes,
    b: Codes,
    *,
    B: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> PromptComparison:
    """A vs B (codes 0..3, INVALID −1) against the reference (0..3), unit by unit.
    The difference is B − A (positive: the new prompt agrees more with the humans)."""
    check_bootstrap_args(B, level)
    ref = as_codes(reference, name="reference", states=False)
    pa = as_codes(a, name="a", states=True)
    pb = as_codes(b, name="b", states=True)
    if not len(ref) == len(pa) == len(pb):
        raise ValueError("reference, a and b must have the same length")
    if (pa < -1).any() or (pb < -1).any():
        raise ValueError("a missing reading has no place here: compare units both prompts read")
    ca, cb = _columns(ref, pa), _columns(ref, pb)
    stats = {
        "acc_a": _accuracy(ca),
        "acc_b": _accuracy(cb),
        "kappa_a": _kappa(ca),
        "kappa_b": _kappa(cb),
    }
    stats["acc_d"] = difference(stats["acc_b"], stats["acc_a"])
    stats["kappa_d"] = difference(stats["kappa_b"], stats["kappa_a"])
    reps = bootstrap(stats, B=B, seed=seed) if B and len(ref) else None

    def est(key: str) -> Estimate:
        return estimate(stats[key], reps[key] if reps else None, level)

    right_a, right_b = pa == ref, pb == ref
    worse = np.flatnonzero(right_a & ~right_b).tolist()
    better = np.flatnonzero(~right_a & right_b).tolist()
    return PromptComparison(
        n=len(ref),
        accuracy_a=est("acc_a"),
        accuracy_b=est("acc_b"),
        accuracy_difference=est("acc_d"),
        kappa_a=est("kappa_a"),
        kappa_b=est("kappa_b"),
        kappa_difference=est("kappa_d"),
        right_to_wrong=worse,
        wrong_to_right=better,
        p_mcnemar=mcnemar_exact(len(worse), len(better)),
    )
