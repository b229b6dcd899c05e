"""Panel D: each automated rater against the humans, with a decision and sample-size advice.

Everything that needs shared units says "not defined" and why when there are none, never a
0.000 or a "fail": a scorer that shares no unit with the humans has no Δα, no alt-test and no
disagreements.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import cast

import numpy as np

from w2c_tui.domain.dashboard import (
    MIN_UNITS,
    Against,
    AltTestDoc,
    AutomatedDoc,
    ClassDoc,
    EstimateDoc,
    HumansDoc,
    JudgeStatsDoc,
    StratifiedDoc,
    VersusHumansDoc,
    undefined,
)
from w2c_tui.domain.labels import InvalidMode, Label
from w2c_tui.services.consensus import human_unanimity
from w2c_tui.services.dashboard.common import (
    CONSENSUS,
    est,
    est_json,
    pairable,
    too_few,
    unshared,
)
from w2c_tui.services.dashboard.common import table_of as table
from w2c_tui.services.dashboard.stand_in import advise, decide
from w2c_tui.services.metrics import rater_metrics
from w2c_tui.services.planning import tool_slice
from w2c_tui.services.readings import INVALID, Readings
from w2c_tui.stats import agreement_summary, alt_test, cohen_kappa, gwet_ac1, judge_vs_humans

NO_HUMAN_OVERLAP = "the rater shares no unit with any human annotator"


def pair_kappa(
    readings: Readings,
    key: str,
    ref: dict[str, Label],
    invalid_mode: InvalidMode,
    bootstrap: int,
    seed: int,
) -> EstimateDoc:
    """Cohen's κ of the rater against the consensus, with a unit-bootstrap interval."""
    pair = table(readings, [key, CONSENSUS], invalid_mode, extra={CONSENSUS: ref})
    summary = agreement_summary(pair, bootstrap=bootstrap, seed=seed)
    [result] = cast(list[dict[str, object]], summary["pairwise"])
    return est_json(result["cohen_kappa"])


def _shares_with_humans(readings: Readings, key: str, humans: list[str]) -> bool:
    mine = {u for (u, r) in readings.values if r == key}
    return any((u, h) in readings.values for u in mine for h in humans)


def _alt(readings: Readings, key: str, humans: list[str], mode: InvalidMode) -> AltTestDoc:
    tested = alt_test(table(readings, [*humans, key], mode), key, humans)
    result = AltTestDoc.of(tested.as_json())  # numbers cleaned by the statistics layer
    if not any(a.reason is None for a in tested.annotators):
        return replace(
            result,
            winning_rate=None,
            advantage_probability=None,
            passed=None,
            reason="not defined: no annotator shares enough units with the rater to test",
        )
    return result


def _stratified(readings: Readings, key: str, ref: dict[str, Label]) -> StratifiedDoc:
    unanimity = human_unanimity(readings)
    out: dict[str, EstimateDoc] = {}
    for name, unanimous in (("unanimous", True), ("split", False)):
        units = [u for u, s in unanimity.items() if (s == 1.0) is unanimous and u in ref]
        a = [ref[u].option for u in units if readings.label(u, key) is not None]
        b = [lab.option for u in units if (lab := readings.label(u, key)) is not None]
        if not a:
            out[name] = undefined("no such units")
        elif len(a) < MIN_UNITS:
            out[name] = too_few(len(a))
        else:
            out[name] = est(cohen_kappa(np.array(a), np.array(b), 4))
    return StratifiedDoc(unanimous=out["unanimous"], split=out["split"])


def strata(readings: Readings, key: str, ref: dict[str, Label]) -> dict[str, int]:
    """Matrix units per gold class and per tool bucket (for the thin-strata advice)."""
    units = {u.key: u for u in readings.units}
    shared = [units[u] for u in ref if readings.label(u, key) is not None]
    counts: Counter[str] = Counter()
    for unit in shared:
        counts[f"gold {unit.gold.value if unit.gold else '—'}"] += 1
        counts[tool_slice(unit.n_tools)] += 1
    return dict(counts)


def automated_row(
    readings: Readings,
    key: str,
    humans: list[str],
    human_doc: HumansDoc,
    ref: dict[str, Label],
    invalid_mode: InvalidMode,
    per_class: Mapping[str, ClassDoc] | None,
    *,
    bootstrap: int,
    seed: int,
) -> AutomatedDoc:
    """One rater against the consensus and against the human ceiling; whether it can stand in."""
    info = readings.rater(key)
    rated = [u for u in readings.units if (u.key, key) in readings.values]
    invalid = sum(1 for u in rated if readings.values[(u.key, key)] == INVALID)
    without = AutomatedDoc(  # the row where there is nothing to compare (yet)
        key=key,
        kind=info.kind.value,
        name=info.name,
        reading=info.reading,
        coverage=len(rated) / len(readings.units) if readings.units else None,
        invalid_rate=invalid / len(rated) if rated else None,
        n_consensus=len(ref),
        stand_in=decide(key, human_doc, None, None, None, None),
        advice=advise(None, {}),
    )
    shared = [u for u in ref if pairable(readings.values.get((u, key)), invalid_mode)]
    if not ref or not shared:
        why = unshared(readings, key, ref) if ref else "no human consensus labels yet"
        return replace(
            without,
            reason=(f"not defined: {why}" if ref else f"{why}: label responses to compare"),
            stand_in=decide(key, human_doc, None, None, None, None, why=why),
        )
    kappa = pair_kappa(readings, key, ref, invalid_mode, bootstrap, seed)
    agree = [readings.label(u, key) == ref[u] for u in ref if readings.label(u, key) is not None]
    pair = table(readings, [key, CONSENSUS], invalid_mode, extra={CONSENSUS: ref})
    metrics = rater_metrics(readings, info, Against.HUMANS, invalid_mode=invalid_mode)
    versus: VersusHumansDoc | None = None
    alt: AltTestDoc | None = None
    if humans and _shares_with_humans(readings, key, humans):
        comparison = judge_vs_humans(
            table(readings, [*humans, key], invalid_mode),
            key,
            humans,
            bootstrap=bootstrap,
            seed=seed,
        )
        versus = VersusHumansDoc(
            judge=comparison.judge,
            humans=comparison.humans,
            kappa_judge_human=est(comparison.kappa_judge_human),
            kappa_human_human=est(comparison.kappa_human_human),
            delta_kappa=est(comparison.delta_kappa),
            # one statistic, one computation: the humans' panel's α (same population, B and
            # seed as the comparison's resamples) wherever the humans' α is shown
            alpha_humans=human_doc.alpha or est(comparison.alpha_humans),
            alpha_with_judge=est(comparison.alpha_with_judge),
            delta_alpha=est(comparison.delta_alpha),
        )
        if len(humans) >= 3:
            alt = _alt(readings, key, humans, invalid_mode)
    stats = JudgeStatsDoc(
        n=kappa.n,
        p_o=sum(agree) / len(agree) if agree else None,
        cohen_kappa=kappa,
        gwet_ac1=est(gwet_ac1(pair, bootstrap=bootstrap, seed=seed)),
        macro_f1=metrics.metrics.macro_f1_ref if metrics else None,
        macro_f1_reason=None if metrics else "no unit with both a reference and a reading",
        cohen_kappa_invalid_wrong=(
            pair_kappa(readings, key, ref, InvalidMode.WRONG, 0, seed)
            if invalid and invalid_mode is InvalidMode.MISSING
            else None
        ),
        alt_test=alt,
        versus_humans=versus,
        versus_humans_reason=(
            None if versus else ("no human annotator yet" if not humans else NO_HUMAN_OVERLAP)
        ),
        stratified=_stratified(readings, key, ref),
    )
    return replace(
        without,
        stats=stats,
        stand_in=decide(key, human_doc, kappa, versus, alt, per_class),
        advice=advise(kappa, strata(readings, key, ref)),
    )
