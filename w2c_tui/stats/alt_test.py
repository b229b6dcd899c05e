"""The alternative-annotator test (Calderon, Reichart & Dror, ACL 2025) for one judge."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from w2c_tui.stats.results import AltTestAnnotator, AltTestResult
from w2c_tui.stats.table import RatingTable

MIN_HUMANS = 3


def _scipy_stats() -> Any:
    from scipy import stats  # type: ignore[import-untyped]

    return stats


def _one_sided_t(d: npt.NDArray[np.float64], epsilon: float) -> tuple[float | None, float]:
    """t and p of H1: mean(d) > −ε (one-sample t on d, n − 1 df); zero variance → p ∈ {0, 1}."""
    n = d.size
    shift = float(d.mean()) + epsilon
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        return None, 0.0 if shift > 0 else 1.0
    t = shift / (sd / math.sqrt(n))
    return t, float(_scipy_stats().t.sf(t, n - 1))


def alt_test(
    table: RatingTable,
    judge: str,
    humans: Sequence[str],
    epsilon: float = 0.2,
    alpha: float = 0.05,
) -> AltTestResult:
    """Can ``judge`` replace a human annotator? Leave-one-annotator-out, per Calderon et al.

    For every left-out human h, on the units labelled by h, by the judge and by ≥ 1 other human:
    S_J(i) = share of the other humans' labels equal to the judge's, S_h(i) = share equal to
    h's (the paper's accuracy alignment). W_J(i) = 1[S_J ≥ S_h], W_h(i) = 1[S_h ≥ S_J]
    (a tie counts for both); ρ_J,h = mean W_J and ρ_h = mean W_h are the advantage
    probabilities. Hypotheses, one per human:

        H0_h: ρ_J,h − ρ_h ≤ −ε    against    H1_h: ρ_J,h − ρ_h > −ε,

    tested with a one-sided paired t-test on d(i) = W_J(i) − W_h(i): t = (mean d + ε)/(sd/√n),
    n − 1 df. The p-values of all humans are corrected with Benjamini–Yekutieli at ``alpha``;
    the winning rate ω is the share of humans whose H0 is rejected (the judge passes when
    ω ≥ 0.5), and ρ = mean over humans of ρ_J,h (the average advantage probability).

    Choices the paper leaves to us: ties of S count as a win for both sides; a human with
    fewer than 2 usable units is untestable, gets p = 1 in the BY family and counts as not
    rejected (it stays in ω's denominator: missing evidence never helps the judge) and is left
    out of ρ when it has no unit at all; with zero variance of d, p = 0 if mean d + ε > 0 else 1
    (the limit of the t-test; t is then reported as None). Needs ≥ 3 humans.
    """
    if isinstance(humans, str):
        raise TypeError("humans must be a sequence of rater names, not one string")
    hs = tuple(humans)
    if judge in hs:
        raise ValueError(f"the judge {judge!r} is also listed among the humans")
    if len(set(hs)) != len(hs):
        raise ValueError("a human is listed twice")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    j_codes = table.column(judge)
    h_codes = np.stack([table.column(h) for h in hs], axis=1) if hs else np.zeros((0, 0))
    if len(hs) < MIN_HUMANS:
        return AltTestResult(
            judge=judge,
            epsilon=epsilon,
            alpha=alpha,
            winning_rate=None,
            advantage_probability=None,
            passed=None,
            reason=f"the alt-test needs at least {MIN_HUMANS} humans, got {len(hs)}",
        )

    rows: list[tuple[str, int, float | None, float | None, float | None, float | None, str | None]]
    rows = []
    for col, h in enumerate(hs):
        others = np.delete(h_codes, col, axis=1)
        mine = h_codes[:, col]
        n_others = (others >= 0).sum(axis=1)
        use = (mine >= 0) & (j_codes >= 0) & (n_others >= 1)
        n = int(use.sum())
        if n == 0:
            why = "no unit labelled by this human, the judge and another human"
            rows.append((h, 0, None, None, None, None, why))
            continue
        o = others[use]
        s_j = (o == j_codes[use][:, None]).sum(axis=1) / n_others[use]
        s_h = (o == mine[use][:, None]).sum(axis=1) / n_others[use]
        w_j = (s_j >= s_h).astype(np.float64)
        w_h = (s_h >= s_j).astype(np.float64)
        rho_j, rho_h = float(w_j.mean()), float(w_h.mean())
        if n < 2:
            rows.append((h, n, rho_j, rho_h, None, None, "fewer than 2 usable units: untestable"))
            continue
        t, p = _one_sided_t(w_j - w_h, epsilon)
        rows.append((h, n, rho_j, rho_h, t, p, None))

    family = np.array([1.0 if r[5] is None else r[5] for r in rows])
    adjusted = np.asarray(
        _scipy_stats().false_discovery_control(family, method="by"), dtype=np.float64
    )
    annotators = tuple(
        AltTestAnnotator(
            human=h,
            n=n,
            rho_judge=rj,
            rho_human=rh,
            t=t,
            p_value=p,
            p_adjusted=float(adj) if p is not None else None,
            rejected=bool(p is not None and adj <= alpha),
            reason=why,
        )
        for (h, n, rj, rh, t, p, why), adj in zip(rows, adjusted, strict=True)
    )
    testable = [a for a in annotators if a.p_value is not None]
    rhos = [a.rho_judge for a in annotators if a.rho_judge is not None]
    if not testable:
        return AltTestResult(
            judge=judge,
            epsilon=epsilon,
            alpha=alpha,
            winning_rate=None,
            advantage_probability=float(np.mean(rhos)) if rhos else None,
            passed=None,
            annotators=annotators,
            reason="no human shares two or more units with the judge and another human",
        )
    omega = sum(a.rejected for a in annotators) / len(annotators)
    return AltTestResult(
        judge=judge,
        epsilon=epsilon,
        alpha=alpha,
        winning_rate=omega,
        advantage_probability=float(np.mean(rhos)),
        passed=omega >= 0.5,
        annotators=annotators,
    )
