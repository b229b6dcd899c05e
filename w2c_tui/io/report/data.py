"""Report sections: what the report was computed on, coverage (A), distributions (B), the
human ceiling (C), reveal effects."""

from __future__ import annotations

from collections.abc import Sequence

from w2c_tui.domain.dashboard import DashboardDoc, RevealVersusDoc
from w2c_tui.io.report.model import Chart, Section, TableSpec, est
from w2c_tui.io.svg import data_uri, intervals
from w2c_tui.present.numbers import num, pct

LABELS = ["direct", "tool_call", "request_for_info", "cannot_answer"]


def data(dash: DashboardDoc) -> Section:
    """The data, the references and the resampling behind every number."""
    meta = dash.meta
    c = meta.consensus
    units = "one per item and target model" if meta.unit_kind == "behaviour" else "one per item"
    return Section(
        "Data this report was computed on",
        [
            f"Dataset **{meta.dataset}** (sha256 {meta.sha256 or '—'}, imported from "
            f"{meta.source_path or '—'}); {meta.n_units} units ({meta.unit_kind}: "
            f"{units}).",
            f"Raters: {', '.join(meta.raters) or 'none'}.",
            f"Human reference on {c.n} units: {c.adjudicated} from adjudication (an "
            f"adjudicated label takes precedence over the majority), {c.majority} by majority "
            f"of ≥{meta.min_humans} human label(s); {c.ties_excluded} ties excluded, "
            f"{c.too_few_humans} with too few humans.",
            f"Invalid (unparsable) outputs counted as **{meta.invalid_mode}**; missing and "
            "invalid are never a class.",
            f"95% percentile intervals from a unit bootstrap, B = {meta.bootstrap.B}, seed "
            f"{meta.bootstrap.seed}. Scales: κ, α and AC1 in [−1, 1]; F1 ×100; shares in "
            f"%. Computed {meta.generated_at} by w2c-tui {meta.w2c_tui}.",
        ],
    )


def coverage(dash: DashboardDoc) -> Section:
    """Panel A: who rated what; the units each pair shares."""
    cov = dash.coverage
    overlap = cov.overlap
    return Section(
        "A · Coverage and overlap",
        [
            "Ratings per unit: " + ", ".join(f"{k}: {v}" for k, v in cov.ratings_per_unit.items()),
            "Overlap counts the units both raters labelled (what every pairwise statistic is "
            "computed on); where invalid outputs add units both rated, that count follows in "
            "brackets.",
        ],
        [
            TableSpec(
                ["rater", "kind", "rated", "labelled", "coverage", "invalid", "invalid rate"],
                [
                    [
                        r.key,
                        r.kind,
                        str(r.n_rated),
                        str(r.n_labelled),
                        pct(r.coverage),
                        str(r.n_invalid),
                        pct(r.invalid_rate),
                    ]
                    for r in cov.raters
                ],
            ),
            TableSpec(
                ["overlap", *overlap.raters],
                [
                    [
                        key,
                        *[
                            str(n) if n == r else f"{n} ({r})"
                            for n, r in zip(labelled, rated, strict=True)
                        ],
                    ]
                    for key, labelled, rated in zip(
                        overlap.raters, overlap.labelled, overlap.rated, strict=True
                    )
                ],
            ),
        ],
    )


def distributions(dash: DashboardDoc) -> Section:
    """Panel B: label counts; marginal homogeneity against the consensus."""
    dist = dash.distributions
    rows = [
        [
            k,
            str(c.n),
            *map(str, (c.direct, c.tool_call, c.request_for_info, c.cannot_answer)),
            str(c.invalid),
        ]
        for k, c in [
            *dist.raters.items(),
            ("humans pooled", dist.humans_pooled),
            ("consensus", dist.consensus),
        ]
    ]
    sm = [
        [
            k,
            num(v.statistic, 2),
            num(v.df),
            num(v.p_value, 4),
            ", ".join(v.dropped) or "—",
            v.reason or "",
        ]
        for k, v in dist.stuart_maxwell.items()
    ]
    return Section(
        "B · Label distributions",
        tables=[
            TableSpec(["rater", "n", *LABELS, "invalid"], rows),
            TableSpec(["Stuart–Maxwell vs consensus", "χ²", "df", "p", "dropped", "note"], sm),
        ],
    )


def humans(dash: DashboardDoc) -> Section:
    """Panel C: the humans' own reliability, with its chart."""
    h = dash.humans
    title = "C · Human reliability (the ceiling)"
    r = h.reliability
    if r is None:
        return Section(title, [f"Not defined: {h.reason}."])
    below = r.p_alpha_below
    alpha, fleiss, ac1 = r.krippendorff_alpha, r.fleiss_kappa, r.gwet_ac1
    chart = intervals(
        [("Krippendorff α", alpha), ("Fleiss κ", fleiss), ("Gwet AC1", ac1)],
        "human reliability (dashed: .667 and .800)",
    )
    return Section(
        title,
        [
            f"**{r.interpretation}.** P(α < .667) = {num(below.get('0.667'))}, "
            f"P(α < .800) = {num(below.get('0.800'))}; {r.n_units_2plus} units with "
            "≥ 2 human labels."
        ],
        [
            TableSpec(
                ["statistic", "value [95% CI]"],
                [
                    ["Krippendorff α (nominal)", est(alpha)],
                    ["percent agreement", est(r.percent_agreement)],
                    ["Fleiss κ (generalised)", est(fleiss)],
                    ["Gwet AC1", est(ac1)],
                    ["mean pairwise Cohen κ", num(r.mean_pairwise_kappa)],
                ],
            ),
            TableSpec(
                ["pair", "n", "Cohen κ", "percent agreement"],
                [
                    [
                        f"{p.a} – {p.b}",
                        str(p.n),
                        est(p.cohen_kappa),
                        est(p.percent_agreement),
                    ]
                    for p in r.pairwise
                ],
            ),
        ],
        [Chart(data_uri(chart), "human reliability intervals")],
    )


def reveal(dash: DashboardDoc) -> Section:
    """What the reveal did to labels: flips, agreement with each rater before and after."""
    doc = dash.reveal
    rows = [
        [
            row.annotator,
            str(row.units_labelled),
            str(row.first_labels_blind),
            str(row.post_reveal_flips),
            v.rater if v else "—",
            str(v.n) if v else "",
            pct(v.agreement_pre_reveal) if v else "",
            pct(v.agreement_current) if v else "",
        ]
        for row in doc.annotators
        for v in _or_none(row.versus)
    ]
    headers = ["annotator", "labelled", "blind first", "flips", "rater", "n", "pre", "now"]
    text = [doc.definition + "."] if doc.annotators else ["No human labels yet."]
    return Section("Reveal effects", text, [TableSpec(headers, rows)])


def _or_none(versus: Sequence[RevealVersusDoc]) -> list[RevealVersusDoc | None]:
    """The rows to show for an annotator: one per rater, or one empty row."""
    return [*versus] if versus else [None]
