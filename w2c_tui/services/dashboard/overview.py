"""Panels A–C: coverage and overlap, label distributions, human reliability (the ceiling)."""

from __future__ import annotations

from collections import Counter
from typing import cast

import numpy as np

from w2c_tui.domain.dashboard import (
    CoverageDoc,
    DistributionDoc,
    DistributionsDoc,
    HomogeneityDoc,
    HumanReliabilityDoc,
    HumansDoc,
    OverlapDoc,
    PairDoc,
    RaterCoverageDoc,
)
from w2c_tui.domain.labels import InvalidMode, Label
from w2c_tui.services.dashboard.common import CATEGORIES, est_json, pairable, table_of
from w2c_tui.services.readings import INVALID, Readings
from w2c_tui.stats import agreement_summary, stuart_maxwell


def coverage(readings: Readings, raters: list[str], invalid_mode: InvalidMode) -> CoverageDoc:
    """Who rated how many units; the units each pair shares (labelled, and rated at all)."""
    n_units = len(readings.units)
    rated = {k: {u for (u, r) in readings.values if r == k} for k in raters}
    labelled = {
        k: {u for (u, r), v in readings.values.items() if r == k and pairable(v, invalid_mode)}
        for k in raters
    }
    rows: list[RaterCoverageDoc] = []
    for key in raters:
        info = readings.rater(key)
        invalid = sum(1 for (u, r), v in readings.values.items() if r == key and v == INVALID)
        n = len(rated[key])
        rows.append(
            RaterCoverageDoc(
                key=key,
                kind=info.kind.value,
                name=info.name,
                reading=info.reading,
                n_rated=n,
                n_labelled=len(labelled[key]),
                n_invalid=invalid,
                invalid_rate=invalid / n if n else None,
                coverage=n / n_units if n_units else None,
            )
        )
    per_unit = Counter(sum(1 for k in raters if u.key in rated[k]) for u in readings.units)
    return CoverageDoc(
        n_units=n_units,
        raters=tuple(rows),
        ratings_per_unit={str(k): v for k, v in sorted(per_unit.items())},
        overlap=OverlapDoc(
            raters=tuple(raters),
            labelled=tuple(tuple(len(labelled[a] & labelled[b]) for b in raters) for a in raters),
            rated=tuple(tuple(len(rated[a] & rated[b]) for b in raters) for a in raters),
        ),
    )


def _distribution(values: list[Label | str]) -> DistributionDoc:
    counts = Counter(str(v) for v in values)
    return DistributionDoc(
        n=len(values),
        direct=counts.get("direct", 0),
        tool_call=counts.get("tool_call", 0),
        request_for_info=counts.get("request_for_info", 0),
        cannot_answer=counts.get("cannot_answer", 0),
        invalid=counts.get(INVALID, 0),
    )


def distributions(
    readings: Readings, raters: list[str], humans: list[str], ref: dict[str, Label]
) -> DistributionsDoc:
    """Label counts per rater, of the pooled humans and of the consensus; Stuart–Maxwell."""
    per_rater = {
        k: _distribution([v for (u, r), v in readings.values.items() if r == k]) for k in raters
    }
    pooled = _distribution([v for (u, r), v in readings.values.items() if r in humans])
    homogeneity: dict[str, HomogeneityDoc] = {}
    for key in raters:
        if key in humans or not ref:
            continue
        table = np.zeros((4, 4), dtype=int)
        for unit, label in ref.items():
            other = readings.label(unit, key)
            if other is not None:
                table[label.option, other.option] += 1
        if table.sum():
            test = stuart_maxwell(table, CATEGORIES)
            homogeneity[key] = HomogeneityDoc(
                statistic=test.statistic,
                df=test.df,
                p_value=test.p_value,
                dropped=test.dropped,
                reason=test.reason,
                n=test.n,
            )
    return DistributionsDoc(
        labels=tuple(CATEGORIES),
        raters=per_rater,
        humans_pooled=pooled,
        consensus=_distribution(list(ref.values())),
        stuart_maxwell=homogeneity,
    )


def interpretation(alpha: float | None) -> str:
    """Krippendorff's conventions for the human reference."""
    if alpha is None:
        return "α is not defined on these data"
    if alpha >= 0.8:
        return "α ≥ .800: the human reference is reliable"
    if alpha >= 0.667:
        return ".667 ≤ α < .800: only tentative conclusions"
    return "α < .667: the human reference itself is not reliable; no judge can be calibrated to it"


def humans_panel(
    readings: Readings, humans: list[str], invalid_mode: InvalidMode, *, bootstrap: int, seed: int
) -> HumansDoc:
    """Panel C: every coefficient of the humans alone, with its interval."""
    if len(humans) < 2:
        return HumansDoc(
            raters=tuple(humans),
            reason="human reliability needs at least two annotators labelling the same "
            f"units ({len(humans)} so far)",
        )
    summary = agreement_summary(
        table_of(readings, humans, invalid_mode), bootstrap=bootstrap, seed=seed
    )
    pairs = [PairDoc.of(p) for p in cast(list[object], summary["pairwise"])]
    kappas = [p.cohen_kappa.value for p in pairs if p.cohen_kappa.value is not None]
    alpha = est_json(summary["krippendorff_alpha"])
    return HumansDoc(
        raters=tuple(humans),
        reliability=HumanReliabilityDoc(
            n_units_2plus=alpha.n,
            krippendorff_alpha=alpha,
            percent_agreement=est_json(summary["percent_agreement"]),
            fleiss_kappa=est_json(summary["fleiss_kappa"]),
            gwet_ac1=est_json(summary["gwet_ac1"]),
            mean_pairwise_kappa=sum(kappas) / len(kappas) if kappas else None,
            pairwise=tuple(pairs),
            p_alpha_below=cast(dict[str, float | None], summary["p_alpha_below"]),
            interpretation=interpretation(alpha.value),
        ),
    )
