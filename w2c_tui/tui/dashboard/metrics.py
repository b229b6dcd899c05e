"""The calibration and metrics tabs: log-prob calibration (F), When2Call metrics, stability."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import MIN_UNITS, DashboardDoc
from w2c_tui.present.numbers import (
    METRICS_HEADERS,
    STABILITY_HEADERS,
    metric_cell,
    metrics_cells,
    stability_cells,
)
from w2c_tui.present.numbers import num as fmt
from w2c_tui.tui.dashboard.common import ABBREV, LABELS, Legend, table
from w2c_tui.tui.plain import cells
from w2c_tui.tui.widgets.charts import bar


def calibration(dash: DashboardDoc) -> RenderableType:
    """Panel F: probabilistic calibration of log-prob scorers (against gold)."""
    parts: list[RenderableType] = []
    for row in dash.metrics:
        cal = row.calibration
        if not cal:
            continue
        raw = cal.raw
        parts.append(
            Text(
                f"{row.rater} · {row.target_model} — {cal.probabilities}: accuracy "
                f"{fmt(raw.accuracy)}  NLL {fmt(raw.nll)}  Brier {fmt(raw.brier)}  "
                f"ECE {fmt(raw.ece)} ({raw.bins_used} equal-mass bins)",
                style="bold",
            )
        )
        t = table("bin", "n", "mean conf.", "accuracy", "", box=None)
        for index, b in enumerate(raw.reliability, 1):
            t.add_row(
                *cells(
                    str(index),
                    str(b.n),
                    fmt(b.mean_confidence),
                    fmt(b.accuracy),
                    Text(bar(b.accuracy, 16))
                    + Text("  conf ", style="dim")
                    + Text(bar(b.mean_confidence, 16), style="dim"),
                )
            )
        parts.append(t)
        norm = cal.length_normalised
        if norm:
            parts.append(
                Text(
                    f"length-normalised softmax: accuracy {fmt(norm.accuracy)}  NLL "
                    f"{fmt(norm.nll)}  Brier {fmt(norm.brier)}  ECE {fmt(norm.ece)}",
                    style="dim",
                )
            )
    if not parts:
        return Text(
            "No log-prob scorer with log-likelihoods in this dataset (the API suite's "
            "scores are not likelihoods and are not calibrated).",
            style="italic",
        )
    return Group(*parts)


def _interval_note(dash: DashboardDoc) -> str:
    b = dash.meta.bootstrap
    if not b.B:
        return ""
    return (
        f". Under each value its {b.level:.0%} bootstrap interval over items (B={b.B}, "
        f'seed {b.seed}); "too few" below {MIN_UNITS} units'
    )


def metrics(dash: DashboardDoc) -> RenderableType:
    """When2Call metrics against gold, then stability over repeats."""
    if not dash.metrics:
        return Text("No rater readings with a gold label.", style="italic")
    legend = Legend(dash.meta.raters)
    t = table("", "model", *METRICS_HEADERS)
    f1s = table("", "model", "F1 4 ×100", "F1 ¬DA ×100", *(f"F1 {ABBREV[k]}" for k in LABELS))
    for m in dash.metrics:
        t.add_row(
            *cells(
                legend.short(m.rater),
                m.target_model or "all",
                *metrics_cells(m, sep="\n"),
            )
        )
        f1s.add_row(
            *cells(
                legend.short(m.rater),
                m.target_model or "all",
                *(
                    metric_cell(m, key, sep="\n")
                    for key in ("macro_f1_4", "macro_f1_no_direct", *(f"f1_{k}" for k in LABELS))
                ),
            )
        )
    note = (
        "macro-F1: reference-compatible, over the labels present; F1 4: over the four "
        "labels; F1 ¬DA: without direct; then each class's F1" + _interval_note(dash) + "."
    )
    parts: list[RenderableType] = [
        Text("When2Call metrics against gold", style="bold"),
        Text(note, style="dim"),
        t,
        Text(""),
        f1s,
    ]
    stable = [m for m in dash.metrics if m.stability]
    if stable:
        s = table(
            "",
            "model",
            *STABILITY_HEADERS,
            title="Stability over k repeats (--repeats) or k responses per unit",
        )
        for m in stable:
            stab = m.stability
            assert stab is not None
            s.add_row(
                *cells(legend.short(m.rater), m.target_model or "all", *stability_cells(stab))
            )
        parts.extend([Text(""), s])
    parts.append(legend.text())
    return Group(*parts)
