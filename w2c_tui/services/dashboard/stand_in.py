"""A decision on each judge in plain words, from a rule stated with it; sample-size advice.

The rule (../shared/docs/AGREEMENT.md §1, §2 panel D, §7: judge acceptance is relative to
the human ceiling, never an absolute κ cut-off):

- the human reference must be reliable enough: human α ≥ .667 (Krippendorff's lowest
  conceivable limit); below it, or with fewer than two annotators, the decision is undecided;
- with ≥ 3 humans, the alternative-annotator test (ε = 0.2, one-sided t-tests with a
  Benjamini–Yekutieli correction at .05): the judge can stand in when it wins against at least
  half of the annotators (ω ≥ 0.5), and cannot otherwise;
- with 2 humans, the paired Δκ = κ(judge, humans) − κ(humans, humans) and its 95% interval
  from the same resamples: the judge can stand in when the interval's lower end is ≥ −0.10
  (at most 0.10 below the humans' own agreement), cannot when its upper end is < −0.10, and
  the decision is undecided when the interval straddles −0.10.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from w2c_tui.domain.dashboard import (
    AdviceDoc,
    AltTestDoc,
    ClassDoc,
    Decision,
    EstimateDoc,
    HumansDoc,
    StandInDoc,
    VersusHumansDoc,
)
from w2c_tui.present.numbers import estimate_text, num

MARGIN = 0.10
"""How far below the humans' own κ a judge may be and still stand in (2-human rule)."""
MIN_ALPHA = 0.667
THIN = 20
"""A stratum with fewer units than this is called thin."""
RULE = (
    f"human α ≥ {MIN_ALPHA:.3f} first; then with ≥ 3 humans the alternative-annotator test "
    "(ε = 0.2, BY-corrected at .05): stands in when ω ≥ 0.5; with 2 humans the paired "
    f"Δκ = κ(judge, humans) − κ(humans, humans): stands in when its 95% interval's lower end "
    f"≥ −{MARGIN:.2f}, cannot when its upper end < −{MARGIN:.2f}, else undecided"
)


def weakest(per_class: Mapping[str, ClassDoc] | None) -> tuple[str | None, str]:
    """The class with the lowest binarised κ among those present, and a phrase naming it."""
    if not per_class:
        return None, ""
    scored = [
        (doc.kappa.value, label)
        for label, doc in per_class.items()
        if doc.support and doc.kappa.value is not None
    ]
    if not scored:
        return None, ""
    value, label = min(scored)
    return label, f"weakest class: {label} (κ one-vs-rest {value:.3f})"


def _stand_in(
    decision: Decision, text: str, evidence: list[str], weakest_class: str | None
) -> StandInDoc:
    return StandInDoc(
        decision=decision,
        text=text,
        rule=RULE,
        evidence=tuple(evidence),
        weakest_class=weakest_class,
    )


def decide(
    key: str,
    humans: HumansDoc,
    kappa: EstimateDoc | None,
    versus: VersusHumansDoc | None,
    alt: AltTestDoc | None,
    per_class: Mapping[str, ClassDoc] | None,
    *,
    why: str | None = None,
) -> StandInDoc:
    """The decision for one automated rater, with the evidence it rests on (`why`: the reason
    there is no κ, where the caller knows it better)."""
    label, phrase = weakest(per_class)
    evidence = [f"κ vs consensus {estimate_text(kappa)} (n = {kappa.n})"] if kappa else []
    if phrase:
        evidence.append(phrase)
    if kappa is None or kappa.value is None:
        why = why or (kappa.reason if kappa else None) or "no unit shared with the human consensus"
        return _stand_in("not defined", f"{key}: not defined — {why}", evidence, label)
    alpha = humans.alpha
    if alpha is None or alpha.value is None:
        reason = humans.reason or (alpha.reason if alpha else None) or "α is not defined"
        return _stand_in(
            "undecided",
            f"{key}: undecided — no human ceiling to compare with ({reason})",
            evidence,
            label,
        )
    evidence.append(f"human α {estimate_text(alpha)}")
    if alpha.value < MIN_ALPHA:
        return _stand_in(
            "undecided",
            f"{key}: undecided — the human reference is not reliable (α {num(alpha.value)} "
            f"< {MIN_ALPHA:.3f}); no judge can be calibrated to it",
            evidence,
            label,
        )
    if alt is not None and alt.winning_rate is not None:
        omega = alt.winning_rate
        evidence.append(f"alt-test ω = {omega:.2f} (ε = {alt.epsilon})")
        if alt.passed:
            return _stand_in(
                "can stand in",
                f"{key} can stand in for a human on this label set (ω = {omega:.2f} ≥ 0.5)",
                evidence,
                label,
            )
        return _stand_in(
            "cannot stand in",
            f"{key} cannot stand in for a human on this label set (ω = {omega:.2f} < 0.5)",
            evidence,
            label,
        )
    delta = versus.delta_kappa if versus else None
    if delta is None or delta.value is None or delta.ci is None:
        why = (delta.reason if delta else None) or "Δκ has no interval (bootstrap off?)"
        return _stand_in("undecided", f"{key}: undecided — {why}", evidence, label)
    low, high = delta.ci
    evidence.append(f"Δκ {estimate_text(delta)}")
    if low >= -MARGIN:
        decision: Decision = "can stand in"
        text = f"{key} can stand in for a human on this label set (Δκ ≥ −{MARGIN:.2f})"
    elif high < -MARGIN:
        decision = "cannot stand in"
        text = f"{key} cannot stand in for a human on this label set (Δκ < −{MARGIN:.2f})"
    else:
        decision = "undecided"
        text = f"{key}: undecided — Δκ's interval straddles −{MARGIN:.2f}; label more units"
    return _stand_in(decision, text, evidence, label)


def advise(kappa: EstimateDoc | None, strata: dict[str, int]) -> AdviceDoc:
    """How many more units would bring κ's 95% interval to ±0.05 and ±0.10.

    The interval's half-width h at n units shrinks like 1/√n, so n' = n · (h / target)²
    (an estimate from the current interval, not a guarantee). Strata with fewer than THIN
    units are named: their numbers rest on little.
    """
    thin = [f"{name} ({n})" for name, n in sorted(strata.items()) if n < THIN]
    n = kappa.n if kappa else 0
    if kappa is None or kappa.ci is None or not n:
        why = (kappa.reason if kappa else None) or "κ has no interval yet"
        return AdviceDoc(
            n=n,
            half_width=None,
            more_for_005=None,
            more_for_010=None,
            thin_strata=tuple(thin),
            text=f"no advice: {why}",
        )
    half = (kappa.ci[1] - kappa.ci[0]) / 2

    def more(target: float) -> int:
        return max(0, math.ceil(n * (half / target) ** 2) - n)

    m05, m10 = more(0.05), more(0.10)
    text = f"κ ±{half:.3f} on {n} units: about {m05} more for ±0.05, {m10} more for ±0.10" + (
        f"; thin strata (< {THIN}): {', '.join(thin)}" if thin else ""
    )
    return AdviceDoc(
        n=n,
        half_width=half,
        more_for_005=m05,
        more_for_010=m10,
        thin_strata=tuple(thin),
        text=text,
    )
