"""Slices: the units cut by gold class, tool count (the paper's 0 / 1 / 2+), source or model.

Each slice gives its n and, per automated rater, κ against the human consensus (with its
interval; "too few units" below MIN_UNITS) and macro-F1 and accuracy against gold, on that
slice's units only.
"""

from __future__ import annotations

from w2c_tui.domain.dashboard import Against, SliceBy, SliceDoc, SliceRowDoc, SlicesDoc, undefined
from w2c_tui.domain.labels import InvalidMode, Label
from w2c_tui.services.dashboard.common import CONSENSUS, est_json, on_enough, table_of
from w2c_tui.services.metrics import rater_metrics
from w2c_tui.services.readings import Readings
from w2c_tui.services.slicing import slice_groups
from w2c_tui.stats import agreement_summary
from w2c_tui.stats.metric_intervals import IntervalSettings


def slices(
    readings: Readings,
    by: SliceBy,
    raters: list[str],
    ref: dict[str, Label],
    invalid_mode: InvalidMode,
    *,
    bootstrap: int,
    seed: int,
) -> SlicesDoc:
    """Every slice in a stable order (the tool buckets 0, 1, 2+; others by name)."""
    out: list[SliceDoc] = []
    for name, units in slice_groups(readings, by):
        rows: list[SliceRowDoc] = []
        for key in raters:
            sub_ref = {u: lab for u, lab in ref.items() if u in units}
            if sub_ref:
                pair = table_of(
                    readings, [key, CONSENSUS], invalid_mode, {CONSENSUS: sub_ref}, units
                )
                summary = agreement_summary(pair, bootstrap=bootstrap, seed=seed)
                kappa = on_enough(est_json(summary["pairwise"][0]["cohen_kappa"]))  # type: ignore[index]
            else:
                kappa = undefined("no human consensus in this slice")
            metrics = rater_metrics(
                readings,
                readings.rater(key),
                Against.GOLD,
                invalid_mode=invalid_mode,
                only=units,
                settings=IntervalSettings(B=bootstrap, seed=seed),
            )
            doc = metrics.document() if metrics else None
            iv = doc.intervals if doc and doc.intervals else {}
            rows.append(
                SliceRowDoc(
                    rater=key,
                    n_consensus=len(sub_ref),
                    cohen_kappa=kappa,
                    n_gold=metrics.metrics.n_scored if metrics else 0,
                    macro_f1=metrics.metrics.macro_f1_ref if metrics else None,
                    accuracy=metrics.metrics.accuracy if metrics else None,
                    macro_f1_interval=iv.get("macro_f1_ref"),
                    accuracy_interval=iv.get("accuracy"),
                )
            )
        out.append(SliceDoc(name=name, n_units=len(units), rows=tuple(rows)))
    return SlicesDoc(by=by.value, slices=tuple(out))
