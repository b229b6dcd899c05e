"""The overview tab: coverage and overlap (A), label distributions (B), the human ceiling (C),
and what the reveal did to the labels."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import DashboardDoc, HumansDoc, RevealDoc, RevealVersusDoc
from w2c_tui.present.numbers import estimate_text, pct
from w2c_tui.present.numbers import num as fmt
from w2c_tui.tui.dashboard.common import ABBREV, LABEL_LEGEND, LABELS, Legend, table
from w2c_tui.tui.plain import cells
from w2c_tui.tui.widgets.charts import interval_bar


def headline(dash: DashboardDoc) -> Text:
    """What the document was computed on, in words."""
    meta = dash.meta
    c = meta.consensus
    return Text(
        f"{meta.dataset}: {meta.n_units} units ({meta.unit_kind}), "
        f"{len(meta.raters)} raters. Human reference on {c.n} units: {c.adjudicated} "
        f"adjudicated, {c.majority} by majority of ≥{meta.min_humans} human(s), "
        f"{c.ties_excluded} ties excluded. Invalid outputs counted as "
        f"{meta.invalid_mode}. Intervals: 95%, unit bootstrap B={meta.bootstrap.B} "
        f"seed={meta.bootstrap.seed}.",
        style="dim",
    )


def overview(dash: DashboardDoc) -> RenderableType:
    """Panels A, B, C and the reveal effects."""
    legend = Legend(dash.meta.raters)
    cov = dash.coverage
    a = table(
        "",
        "rater",
        "rated",
        "labelled",
        "coverage",
        "invalid",
        title="A · coverage",
        caption="rated: units with any output (invalid ones too); labelled: what statistics use",
        caption_justify="left",
    )
    for row in cov.raters:
        a.add_row(
            *cells(
                legend.short(row.key),
                row.key,
                str(row.n_rated),
                str(row.n_labelled),
                pct(row.coverage),
                f"{row.n_invalid} ({pct(row.invalid_rate)})",
            )
        )
    per_unit = "  ".join(f"{k} rating(s): {v}" for k, v in cov.ratings_per_unit.items())
    overlap = cov.overlap
    o = table(
        "",
        *[legend.short(k) for k in overlap.raters],
        title="overlap: units both labelled (rated at all, if more)",
    )
    for index, key in enumerate(overlap.raters):
        o.add_row(
            *cells(
                legend.short(key),
                *[
                    str(n) if n == r else f"{n} ({r})"
                    for n, r in zip(overlap.labelled[index], overlap.rated[index], strict=True)
                ],
            )
        )
    dist = dash.distributions
    b = table("", "n", *[ABBREV[c] for c in LABELS], "invalid", title="B · label distributions")
    for name, counts in [
        *[(legend.short(k), v) for k, v in dist.raters.items()],
        ("humans", dist.humans_pooled),
        ("consensus", dist.consensus),
    ]:
        n = counts.n
        shares = [counts.direct, counts.tool_call, counts.request_for_info, counts.cannot_answer]
        b.add_row(
            *cells(
                name,
                str(n),
                *[f"{c} ({pct(c / n if n else None)})" for c in shares],
                str(counts.invalid),
            )
        )
    homog = Text()
    for key, result in dist.stuart_maxwell.items():
        homog.append(
            f"Stuart–Maxwell {legend.short(key)} vs consensus: "
            + (
                f"χ² {fmt(result.statistic, 2)}, df {result.df}, p {fmt(result.p_value, 4)}"
                if result.statistic is not None
                else f"not defined ({result.reason})"
            )
            + (f" (dropped {', '.join(result.dropped)})" if result.dropped else "")
            + "\n",
            style="dim",
        )
    return Group(
        headline(dash),
        legend.text(),
        a,
        Text(per_unit, style="dim"),
        o,
        b,
        Text(LABEL_LEGEND, style="dim"),
        homog,
        humans(dash.humans, legend),
        Text(""),
        reveal(dash.reveal),
    )


def humans(h: HumansDoc, legend: Legend) -> RenderableType:
    """Panel C: human reliability, the ceiling."""
    r = h.reliability
    if r is None:
        return Text(f"C · human reliability: not defined — {h.reason}", style="italic")
    c = table("statistic", "value [95% CI]", "−1 ······ 0 ······ 1", title="C · human reliability")
    for name, est, low in (
        ("Krippendorff α", r.krippendorff_alpha, -1.0),
        ("% agreement", r.percent_agreement, 0.0),
        ("Fleiss κ (gen.)", r.fleiss_kappa, -1.0),
        ("Gwet AC1", r.gwet_ac1, -1.0),
    ):
        c.add_row(*cells(name, estimate_text(est), interval_bar(est, low=low, width=20)))
    c.add_row(*cells("mean pairwise κ", fmt(r.mean_pairwise_kappa), ""))
    below = r.p_alpha_below
    note = Text(
        f"{r.interpretation}. P(α<.667) = {fmt(below.get('0.667'))}, P(α<.800) = "
        f"{fmt(below.get('0.800'))}; units with ≥2 human labels: {r.n_units_2plus}",
        style="bold",
    )
    return Group(c, note)


def reveal(doc: RevealDoc) -> RenderableType:
    """What the reveal did: post-reveal flips, agreement with each rater before and after."""
    if not doc.annotators:
        return Text("Reveal effects: no human labels yet.", style="italic")
    t = table(
        "annotator",
        "units",
        "blind",
        "flips",
        "vs",
        "n",
        "agree pre→now",
        "κ pre→now",
        title="Reveal effects (pre-reveal: an annotator's first label on a unit, made blind)",
    )
    for row in doc.annotators:
        versus: list[RevealVersusDoc | None] = [*row.versus] or [None]
        for index, v in enumerate(versus):
            first = index == 0
            t.add_row(
                *cells(
                    row.annotator if first else "",
                    str(row.units_labelled) if first else "",
                    str(row.first_labels_blind) if first else "",
                    str(row.post_reveal_flips) if first else "",
                    v.rater if v else "—",
                    str(v.n) if v else "",
                    f"{pct(v.agreement_pre_reveal)}→{pct(v.agreement_current)}" if v else "",
                    f"{fmt(v.kappa_pre_reveal.value)}→{fmt(v.kappa_current.value)}" if v else "",
                )
            )
    return Group(t, Text(doc.definition, style="dim"))
