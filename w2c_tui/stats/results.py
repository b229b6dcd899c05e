"""Result records of the agreement engine, each with a JSON-safe ``as_json``."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from w2c_tui.domain.dashboard_core import too_few_reason


def _clean(x: float | None) -> float | None:
    """A plain Python float (no numpy scalar), or None; NaN/inf are refused."""
    if x is None:
        return None
    v = float(x)
    if not math.isfinite(v):
        raise ValueError(f"non-finite value {x!r}: undefined results must be None with a reason")
    return v


@dataclass(frozen=True)
class Estimate:
    """A coefficient with its percentile bootstrap interval.

    ``value`` is None when the coefficient is not defined on the data (``reason`` says why).
    ``ci`` is None without bootstrap (B = 0), when the value is undefined, or when every
    resample was degenerate. ``n`` counts the units that entered the computation and
    ``degenerate`` the resamples where the coefficient was undefined (they are excluded from
    the percentiles, never set to a number).
    """

    value: float | None
    ci: tuple[float, float] | None
    reason: str | None = None
    n: int = 0
    degenerate: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", _clean(self.value))
        if self.ci is not None:
            lo, hi = _clean(self.ci[0]), _clean(self.ci[1])
            assert lo is not None and hi is not None
            object.__setattr__(self, "ci", (lo, hi))
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "degenerate", int(self.degenerate))

    @classmethod
    def undefined(cls, reason: str, n: int = 0) -> Estimate:
        return cls(value=None, ci=None, reason=reason, n=n)

    def as_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "ci": list(self.ci) if self.ci is not None else None,
            "n": self.n,
            "reason": self.reason,
            "degenerate": self.degenerate,
        }


def too_few(n: int) -> Estimate:
    """The estimate of a statistic on fewer than MIN_UNITS units: not reported."""
    return Estimate.undefined(too_few_reason(n), n=n)


@dataclass(frozen=True)
class PairResult:
    """Cohen's κ and percent agreement of two raters on the units both labelled."""

    a: str
    b: str
    n: int
    cohen_kappa: Estimate
    percent_agreement: Estimate

    def as_json(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "n": self.n,
            "cohen_kappa": self.cohen_kappa.as_json(),
            "percent_agreement": self.percent_agreement.as_json(),
        }


@dataclass(frozen=True)
class StuartMaxwellResult:
    """Stuart–Maxwell marginal homogeneity test of a square table.

    ``dropped`` names the categories with no off-diagonal cell: they carry no information
    about marginal differences and would make the covariance matrix singular.
    """

    statistic: float | None
    df: int
    p_value: float | None
    dropped: tuple[str, ...] = ()
    reason: str | None = None
    n: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "statistic", _clean(self.statistic))
        object.__setattr__(self, "p_value", _clean(self.p_value))

    def as_json(self) -> dict[str, object]:
        return {
            "statistic": self.statistic,
            "df": self.df,
            "p_value": self.p_value,
            "dropped": list(self.dropped),
            "reason": self.reason,
            "n": self.n,
        }


@dataclass(frozen=True)
class AltTestAnnotator:
    """The alt-test for one left-out human annotator."""

    human: str
    n: int
    rho_judge: float | None  # P(judge aligns with the others at least as well as the human)
    rho_human: float | None  # P(human aligns with the others at least as well as the judge)
    t: float | None
    p_value: float | None  # one-sided, before the BY correction; None when untestable
    p_adjusted: float | None  # Benjamini–Yekutieli adjusted
    rejected: bool
    reason: str | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "human": self.human,
            "n": self.n,
            "rho_judge": _clean(self.rho_judge),
            "rho_human": _clean(self.rho_human),
            "t": _clean(self.t),
            "p_value": _clean(self.p_value),
            "p_adjusted": _clean(self.p_adjusted),
            "rejected": self.rejected,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class AltTestResult:
    """Alternative-annotator test of one judge against a panel of humans."""

    judge: str
    epsilon: float
    alpha: float
    winning_rate: float | None  # ω: share of annotators whose null was rejected
    advantage_probability: float | None  # ρ: mean of the per-annotator rho_judge
    passed: bool | None  # ω ≥ 0.5
    annotators: tuple[AltTestAnnotator, ...] = field(default_factory=tuple)
    reason: str | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "judge": self.judge,
            "epsilon": self.epsilon,
            "alpha": self.alpha,
            "winning_rate": _clean(self.winning_rate),
            "advantage_probability": _clean(self.advantage_probability),
            "passed": self.passed,
            "annotators": [a.as_json() for a in self.annotators],
            "reason": self.reason,
        }


@dataclass(frozen=True)
class JudgeComparison:
    """A judge against the human ceiling, every interval from the SAME unit resamples."""

    judge: str
    humans: tuple[str, ...]
    kappa_judge_human: Estimate  # mean Cohen κ over (judge, human_i) pairs
    kappa_human_human: Estimate  # mean Cohen κ over (human_i, human_j) pairs
    delta_kappa: Estimate  # kappa_judge_human − kappa_human_human, paired CI
    alpha_humans: Estimate
    alpha_with_judge: Estimate
    delta_alpha: Estimate  # alpha_with_judge − alpha_humans, paired CI

    def as_json(self) -> dict[str, object]:
        return {
            "judge": self.judge,
            "humans": list(self.humans),
            "kappa_judge_human": self.kappa_judge_human.as_json(),
            "kappa_human_human": self.kappa_human_human.as_json(),
            "delta_kappa": self.delta_kappa.as_json(),
            "alpha_humans": self.alpha_humans.as_json(),
            "alpha_with_judge": self.alpha_with_judge.as_json(),
            "delta_alpha": self.delta_alpha.as_json(),
        }
