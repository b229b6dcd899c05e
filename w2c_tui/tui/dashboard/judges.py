"""The judges tab: can each automated rater stand in for a human? A decision per rater with the
rule and the evidence, then the numbers behind it (panel D)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import AutomatedDoc, DashboardDoc, EstimateDoc
from w2c_tui.present.numbers import estimate_text, f1, pct
from w2c_tui.present.numbers import num as fmt
from w2c_tui.tui.dashboard.common import Legend, table
from w2c_tui.tui.dashboard.consistency import consistency
from w2c_tui.tui.plain import cells
from w2c_tui.tui.widgets.charts import interval_bar

STYLE = {
    "can stand in": "bold green",
    "cannot stand in": "bold red",
    "undecided": "bold yellow",
    "not defined": "bold",
}


def judges(dash: DashboardDoc) -> RenderableType:
    """Decisions first, then the comparison tables (raters as R1, R2, … with a legend)."""
    rows = dash.automated
    legend = Legend(dash.meta.raters)
    mcq = dash.mcq_consistency
    if not rows:
        none = Text("No judge or scorer reading the humans' units yet.", style="italic")
        return Group(none, Text(""), consistency(mcq, legend)) if mcq else none
    parts: list[RenderableType] = [Text("Can this rater stand in for a human?", style="bold")]
    for row in rows:
        parts.append(_decision(row, legend))
    parts.append(Text(f"Rule: {rows[0].stand_in.rule}.", style="dim") if rows else Text(""))
    parts.extend([Text(""), _consensus_table(rows, legend), _ceiling_table(rows, legend)])
    parts.append(legend.text())
    parts.append(
        Text(
            "κ: Cohen's κ against the human consensus; p_o: share of equal labels; macro-F1 "
            "×100 against the consensus; κ(J,H): mean κ of the rater with each human; "
            "κ(H,H): mean κ between humans; Δκ = κ(J,H) − κ(H,H) and Δα = α(humans + rater) − "
            "α(humans), intervals from the same resamples; ω: alternative-annotator test "
            "winning rate (≥ 3 humans).",
            style="dim",
        )
    )
    if mcq is not None:
        parts.extend([Text(""), consistency(mcq, legend)])
    return Group(*parts)


def _decision(row: AutomatedDoc, legend: Legend) -> RenderableType:
    stand_in = row.stand_in
    head = Text()
    head.append(f"{legend.short(row.key)} ", style="bold")
    head.append(f"{stand_in.decision.upper()} ", style=STYLE[stand_in.decision])
    head.append(stand_in.text)
    lines: list[RenderableType] = [head]
    if stand_in.evidence:
        lines.append(Text("   evidence: " + "; ".join(stand_in.evidence), style="dim"))
    lines.append(Text(f"   sample size: {row.advice.text}", style="dim"))
    return Group(*lines)


def _consensus_table(rows: Sequence[AutomatedDoc], legend: Legend) -> RenderableType:
    t = table(
        "",
        "n",
        "invalid",
        "p_o",
        "κ vs consensus [95% CI]",
        "−1 ···· 0 ···· 1",
        "macro-F1 ×100 vs humans",
        title="D · against the human consensus",
    )
    notes: list[Text] = []
    for row in rows:
        if row.stats is None:
            notes.append(Text(f"{legend.short(row.key)}: {row.reason}", style="italic"))
            continue
        kappa = row.cohen_kappa
        t.add_row(
            *cells(
                legend.short(row.key),
                str(row.n),
                pct(row.invalid_rate),
                fmt(row.stats.p_o),
                estimate_text(kappa),
                interval_bar(kappa, width=15),
                f1(row.macro_f1),
            )
        )
        strat = row.stats.stratified
        if strat:
            notes.append(
                Text(
                    f"{legend.short(row.key)}: κ where the humans were unanimous: "
                    f"{_on_n(strat.unanimous)}; split: {_on_n(strat.split)}",
                    style="dim",
                )
            )
        strict = row.stats.cohen_kappa_invalid_wrong
        if strict:
            notes.append(
                Text(
                    f"{legend.short(row.key)}: κ with invalid outputs counted as wrong "
                    f"{estimate_text(strict)}",
                    style="dim",
                )
            )
    return Group(t, *notes)


def _on_n(value: EstimateDoc) -> str:
    """'0.412 [0.20, 0.61] (n=40)', or why there is no value ('too few units (n=2)')."""
    if value.value is None:
        return value.reason or "—"
    return f"{estimate_text(value)} (n={value.n})"


def _ceiling_table(rows: Sequence[AutomatedDoc], legend: Legend) -> RenderableType:
    t = table(
        "",
        "κ(J,H)",
        "κ(H,H)",
        "Δκ [95% CI]",
        "Δα [95% CI]",
        "ω",
        title="D · against the human ceiling (same resamples)",
    )
    notes: list[Text] = []
    for row in rows:
        if row.stats is None:
            continue
        vs = row.versus_humans
        if vs is None:
            notes.append(
                Text(
                    f"{legend.short(row.key)}: Δκ, Δα and the alt-test are not defined — "
                    f"{row.stats.versus_humans_reason}",
                    style="italic",
                )
            )
            continue
        alt = row.alt_test
        if alt is None:
            omega = "— (< 3 humans)"
        elif alt.winning_rate is None:
            omega = f"— ({alt.reason})"
        else:
            omega = f"{alt.winning_rate:.2f} {'pass' if alt.passed else 'fail'}"
        t.add_row(
            *cells(
                legend.short(row.key),
                fmt(vs.kappa_judge_human.value),
                fmt(vs.kappa_human_human.value),
                estimate_text(vs.delta_kappa),
                estimate_text(vs.delta_alpha),
                omega,
            )
        )
    return Group(t, *notes)
