"""Report sections: calibration (F), When2Call metrics, stability, slices, corrected scores."""

from __future__ import annotations

from w2c_tui.domain.dashboard import MIN_UNITS, DashboardDoc
from w2c_tui.io.report.model import Chart, Section, TableSpec, est
from w2c_tui.io.svg import data_uri, reliability
from w2c_tui.present.estimate import (
    CORRECTED_HEADERS,
    CORRECTED_NOTE,
    corrected_cells,
    undefined_notes,
)
from w2c_tui.present.numbers import (
    METRICS_HEADERS,
    STABILITY_HEADERS,
    metric_cell,
    metrics_cells,
    num,
    slice_cells,
    stability_cells,
)


def calibration(dash: DashboardDoc) -> Section:
    """Panel F: calibration of log-prob scorers, one reliability diagram each."""
    section = Section("F · Calibration of log-prob scorers (against gold)")
    rows = []
    for m in dash.metrics:
        cal = m.calibration
        if not cal:
            continue
        raw = cal.raw
        rows.append(
            [
                m.rater,
                m.target_model or "all",
                str(raw.n),
                num(raw.accuracy),
                num(raw.nll),
                num(raw.brier),
                num(raw.ece),
                str(raw.bins_used),
            ]
        )
        section.charts.append(
            Chart(
                data_uri(reliability(raw.reliability, f"{m.rater} · {m.target_model}")),
                f"reliability diagram of {m.rater} on {m.target_model}",
            )
        )
    section.paragraphs.append(
        "Probabilities: softmax over the four log-likelihoods; ECE over equal-mass bins."
        if rows
        else "No scorer with log-likelihoods."
    )
    section.tables.append(
        TableSpec(["rater", "target model", "n", "accuracy", "NLL", "Brier", "ECE", "bins"], rows)
    )
    return section


def _interval_note(dash: DashboardDoc) -> str:
    b = dash.meta.bootstrap
    if not b.B:
        return "No intervals (bootstrap B = 0)."
    return (
        f"Each value with its {b.level:.0%} percentile interval, bootstrapped over items "
        f"(B = {b.B}, seed {b.seed}; the same draws for every metric of a row); a metric on "
        f'fewer than {MIN_UNITS} units reads "too few".'
    )


def metrics(dash: DashboardDoc) -> list[Section]:
    """When2Call metrics against gold; stability where there are repeats."""
    out = [
        Section(
            "When2Call metrics against gold",
            [
                "macro-F1 ×100 in the reference-compatible form (sklearn macro over the labels "
                "present; raw argmax for log-prob scorers); Tool-Hall = share of no-tool "
                "cannot_answer items answered with a tool call. " + _interval_note(dash)
            ],
            [
                TableSpec(
                    [
                        "rater",
                        "target model",
                        *METRICS_HEADERS,
                        "F1 4 labels ×100",
                        "F1 without direct ×100",
                    ],
                    [
                        [
                            m.rater,
                            m.target_model or "all",
                            *metrics_cells(m),
                            metric_cell(m, "macro_f1_4"),
                            metric_cell(m, "macro_f1_no_direct"),
                        ]
                        for m in dash.metrics
                    ],
                )
            ],
        )
    ]
    stable = [(m, m.stability) for m in dash.metrics if m.stability is not None]
    if stable:
        out.append(
            Section(
                "Stability over repeats",
                [
                    "Over the rater's own k repeats where a run used --repeats, else over the "
                    "target model's k responses per unit; shares are over the units with a run "
                    "(API-suite definitions: Stability@k = all k agree)."
                ],
                [
                    TableSpec(
                        ["rater", "target model", *STABILITY_HEADERS],
                        [
                            [
                                m.rater,
                                m.target_model or "all",
                                *stability_cells(stab),
                            ]
                            for m, stab in stable
                        ],
                    )
                ],
            )
        )
    return out


def slices(dash: DashboardDoc) -> list[Section]:
    """Each automated rater on each slice of the units (with `--by`)."""
    doc = dash.slices
    if doc is None:
        return []
    rows = [
        [
            part.name,
            str(part.n_units),
            row.rater,
            str(row.n_consensus),
            est(row.cohen_kappa),
            str(row.n_gold),
            *slice_cells(row.macro_f1, row.macro_f1_interval, row.accuracy, row.accuracy_interval),
        ]
        for part in doc.slices
        for row in part.rows
    ]
    return [
        Section(
            f"Slices by {doc.by}",
            ["κ against the human consensus and metrics against gold on each slice's units."],
            [
                TableSpec(
                    [
                        doc.by,
                        "units",
                        "rater",
                        "n (consensus)",
                        "κ vs consensus",
                        "n (gold)",
                        "macro-F1 ×100 vs gold",
                        "accuracy",
                    ],
                    rows,
                )
            ],
        )
    ]


def corrected(dash: DashboardDoc) -> Section:
    """Judge-corrected scores: per target model and judge, each metric raw, by the humans
    alone and corrected (prediction-powered inference)."""
    docs = dash.corrected or ()
    paragraphs = [CORRECTED_NOTE]
    undefined = undefined_notes(docs)
    if not docs:
        paragraphs = ["No judged response has a human reference: nothing to correct."]
    elif undefined:
        paragraphs.append("Not defined: " + "; ".join(undefined) + ".")
    return Section(
        "Judge-corrected scores",
        paragraphs,
        [TableSpec(CORRECTED_HEADERS, [corrected_cells(d) for d in docs])],
    )
