"""Report sections: the decision on each judge (D) and one drill-down per rater (E)."""

from __future__ import annotations

from w2c_tui.domain.dashboard import DashboardDoc, DrilldownDoc
from w2c_tui.io.report.model import Chart, Section, TableSpec, est
from w2c_tui.io.svg import data_uri, heatmap, intervals
from w2c_tui.present.numbers import f1, num, pct

LABELS = ["direct", "tool_call", "request_for_info", "cannot_answer"]
SHORT = ["direct", "tool call", "req. info", "cannot"]


def judges(dash: DashboardDoc) -> Section:
    """Panel D: can each rater stand in for a human? Decision, rule, evidence, numbers."""
    rows = dash.automated
    section = Section("D · Can each rater of the humans' units stand in for a human?")
    if not rows:
        section.paragraphs.append("No judge or scorer readings in this dataset.")
        return section
    section.paragraphs.append(f"Rule: {rows[0].stand_in.rule}.")
    decisions, consensus_rows, ceiling_rows = [], [], []
    for row in rows:
        stand_in = row.stand_in
        decisions.append(
            [
                row.key,
                stand_in.decision,
                "; ".join(stand_in.evidence) or "—",
                stand_in.weakest_class or "—",
                row.advice.text,
            ]
        )
        stats = row.stats
        if stats is None:
            section.paragraphs.append(f"{row.key}: {row.reason}.")
            continue
        consensus_rows.append(
            [
                row.key,
                pct(row.coverage),
                pct(row.invalid_rate),
                str(row.n),
                num(stats.p_o),
                est(stats.cohen_kappa),
                f1(stats.macro_f1),
                est(stats.gwet_ac1),
            ]
        )
        vs, alt = stats.versus_humans, stats.alt_test
        if vs is None:
            section.paragraphs.append(
                f"{row.key}: Δκ, Δα and the alt-test are not defined — "
                f"{stats.versus_humans_reason}."
            )
            continue
        omega = (
            "— (< 3 humans)"
            if alt is None
            else (
                f"{num(alt.winning_rate, 2)} {'pass' if alt.passed else 'fail'}"
                if alt.winning_rate is not None
                else f"— ({alt.reason})"
            )
        )
        ceiling_rows.append(
            [
                row.key,
                num(vs.kappa_judge_human.value),
                num(vs.kappa_human_human.value),
                est(vs.delta_kappa),
                est(vs.delta_alpha),
                omega,
            ]
        )
    section.tables = [
        TableSpec(["rater", "decision", "evidence", "weakest class", "sample size"], decisions),
        TableSpec(
            [
                "rater",
                "coverage",
                "invalid",
                "n",
                "p_o",
                "Cohen κ vs consensus",
                "macro-F1 ×100 vs humans",
                "AC1 vs consensus",
            ],
            consensus_rows,
        ),
        TableSpec(
            ["rater", "κ(J,H)", "κ(H,H)", "Δκ [paired CI]", "Δα [paired CI]", "alt-test ω"],
            ceiling_rows,
        ),
    ]
    kappas = [(r.key, r.cohen_kappa) for r in rows if r.stats is not None]
    if kappas:
        section.charts.append(
            Chart(
                data_uri(intervals(kappas, "Cohen κ against the human consensus")),
                "κ intervals of every rater",
            )
        )
    return section


def drilldown(key: str, drill: DrilldownDoc) -> Section:
    """Panel E for one rater, with its own confusion heatmap."""
    section = Section(f"E · Drill-down: {key}")
    matrix = drill.matrix
    if matrix is None:
        section.paragraphs.append((drill.reason or "—") + ".")
        return section
    confusion = matrix.confusion
    listed = matrix.disagreements
    section.paragraphs.append(
        f"On the {matrix.n} units where both the consensus and the rater have a label; "
        "the per-class κ is Cohen's κ of the binarised labels (class vs rest) on those units. "
        f"{matrix.n_disagreements} disagreement(s) with the consensus (first 50 "
        "listed, unanimous humans first)."
    )
    per = [
        [
            label,
            str(c.support),
            num(c.precision),
            num(c.recall),
            f1(c.f1),
            est(c.specific_agreement),
            est(c.alpha),
            est(c.kappa),
            pct(c.prevalence_humans),
            pct(c.prevalence_rater),
        ]
        for label, c in matrix.per_class.items()
    ]
    dis = [
        [
            d.uuid,
            d.target_model or "—",
            d.consensus,
            d.rater,
            " ".join(d.humans),
            num(d.unanimity, 2),
        ]
        for d in listed[:50]
    ]
    section.tables = [
        TableSpec(
            ["consensus ↓ / rater →", *LABELS],
            [[label, *map(str, row)] for label, row in zip(LABELS, confusion, strict=True)],
        ),
        TableSpec(
            [
                "class",
                "support",
                "precision",
                "recall",
                "F1 ×100",
                "specific agreement",
                "α one-vs-rest",
                "κ one-vs-rest",
                "prevalence humans",
                "prevalence rater",
            ],
            per,
        ),
        TableSpec(["item", "target model", "consensus", "rater", "humans", "unanimity"], dis),
    ]
    section.charts.append(
        Chart(
            data_uri(heatmap(confusion, SHORT, SHORT, f"{key}: consensus (rows) × rater")),
            f"confusion matrix of {key}",
        )
    )
    return section
