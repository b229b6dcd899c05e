"""The calibration report as Markdown, HTML (charts as SVG images) or JSON."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from w2c_tui.io.numbers import (
    METRICS_HEADERS,
    STABILITY_HEADERS,
    estimate_text,
    metrics_cells,
    num,
    pct,
    stability_cells,
)
from w2c_tui.io.svg import data_uri, heatmap, intervals, reliability

LABELS = ["direct", "tool_call", "request_for_info", "cannot_answer"]
SHORT = ["direct", "tool call", "req. info", "cannot"]
Table = tuple[list[str], list[list[str]]]


def est(value: dict[str, Any] | None) -> str:
    """An estimate with its interval to three places, or '—' with the reason."""
    return estimate_text(value, ci_digits=3, with_reason=True)


def _reveal(dash: dict[str, Any]) -> tuple[str, list[str], list[Table]]:
    """Reveal effects: post-reveal flips and agreement with each rater before and after."""
    doc = dash.get("reveal") or {}
    rows = [
        [
            row["annotator"],
            str(row["units_labelled"]),
            str(row["first_labels_blind"]),
            str(row["post_reveal_flips"]),
            v["rater"] if v else "—",
            str(v["n"]) if v else "",
            pct(v["agreement_pre_reveal"]) if v else "",
            pct(v["agreement_current"]) if v else "",
        ]
        for row in doc.get("annotators") or []
        for v in (row["versus"] or [None])
    ]
    headers = ["annotator", "labelled", "blind first", "flips", "rater", "n", "pre", "now"]
    text = [doc["definition"] + "."] if doc.get("definition") else []
    return ("Reveal effects", text or ["No human labels yet."], [(headers, rows)])


def sections(dash: dict[str, Any]) -> list[tuple[str, list[str], list[Table]]]:
    """(title, paragraphs, tables) in report order — shared by Markdown and HTML."""
    meta = dash["meta"]
    out: list[tuple[str, list[str], list[Table]]] = []
    data = [
        f"Dataset **{meta['dataset']}** (sha256 {meta.get('sha256') or '—'}, imported from "
        f"{meta.get('source_path') or '—'}); {meta['n_units']} units "
        f"({meta['unit_kind']}: "
        + ("one per item and target model" if meta["unit_kind"] == "behaviour" else "one per item")
        + ").",
        f"Raters: {', '.join(meta['raters']) or 'none'}.",
        f"Human reference on {meta['consensus']['n']} units: "
        f"{meta['consensus']['adjudicated']} from adjudication (an adjudicated label takes "
        f"precedence over the majority), {meta['consensus']['majority']} by majority of "
        f"≥{meta['min_humans']} human label(s); {meta['consensus']['ties_excluded']} ties "
        f"excluded, {meta['consensus']['too_few_humans']} with too few humans.",
        f"Invalid (unparsable) outputs counted as **{meta['invalid_mode']}**; missing and "
        "invalid are never a class.",
        f"95% percentile intervals from a unit bootstrap, B = {meta['bootstrap']['B']}, seed "
        f"{meta['bootstrap']['seed']}. Computed {meta['generated_at']} by w2c-tui "
        f"{meta['w2c_tui']}.",
    ]
    out.append(("Data this report was computed on", data, []))
    cov = dash["coverage"]
    out.append(
        (
            "A · Coverage and overlap",
            [
                "Ratings per unit: "
                + ", ".join(f"{k}: {v}" for k, v in cov["ratings_per_unit"].items())
            ],
            [
                (
                    ["rater", "kind", "rated", "coverage", "invalid", "invalid rate"],
                    [
                        [
                            r["key"],
                            r["kind"],
                            str(r["n_rated"]),
                            pct(r["coverage"]),
                            str(r["n_invalid"]),
                            pct(r["invalid_rate"]),
                        ]
                        for r in cov["raters"]
                    ],
                ),
                (
                    ["overlap", *cov["overlap"]["raters"]],
                    [
                        [k, *map(str, row)]
                        for k, row in zip(
                            cov["overlap"]["raters"], cov["overlap"]["matrix"], strict=True
                        )
                    ],
                ),
            ],
        )
    )
    dist = dash["distributions"]
    rows = [
        [k, str(c["n"]), *[str(c[label]) for label in LABELS], str(c["invalid"])]
        for k, c in [
            *dist["raters"].items(),
            ("humans pooled", dist["humans_pooled"]),
            ("consensus", dist["consensus"]),
        ]
    ]
    sm = [
        [
            k,
            num(v.get("statistic"), 2),
            num(v.get("df")),
            num(v.get("p_value"), 4),
            ", ".join(v.get("dropped") or []) or "—",
            v.get("reason") or "",
        ]
        for k, v in (dist.get("stuart_maxwell") or {}).items()
    ]
    out.append(
        (
            "B · Label distributions",
            [],
            [
                (["rater", "n", *LABELS, "invalid"], rows),
                (["Stuart–Maxwell vs consensus", "χ²", "df", "p", "dropped", "note"], sm),
            ],
        )
    )
    h = dash["humans"]
    if h.get("reason"):
        out.append(("C · Human reliability (the ceiling)", [h["reason"]], []))
    else:
        below = h.get("p_alpha_below") or {}
        out.append(
            (
                "C · Human reliability (the ceiling)",
                [
                    f"**{h['interpretation']}.** P(α < .667) = {num(below.get('0.667'))}, "
                    f"P(α < .800) = {num(below.get('0.800'))}; {h.get('n_units_2plus')} units with "
                    "≥ 2 human labels."
                ],
                [
                    (
                        ["statistic", "value [95% CI]"],
                        [
                            ["Krippendorff α (nominal)", est(h["krippendorff_alpha"])],
                            ["percent agreement", est(h["percent_agreement"])],
                            ["Fleiss κ (generalised)", est(h["fleiss_kappa"])],
                            ["Gwet AC1", est(h["gwet_ac1"])],
                            ["mean pairwise Cohen κ", num(h["mean_pairwise_kappa"])],
                        ],
                    ),
                    (
                        ["pair", "n", "Cohen κ", "percent agreement"],
                        [
                            [
                                f"{p['a']} – {p['b']}",
                                str(p["n"]),
                                est(p["cohen_kappa"]),
                                est(p["percent_agreement"]),
                            ]
                            for p in h["pairwise"]
                        ],
                    ),
                ],
            )
        )
    auto = dash["automated"]
    d_rows, c_rows, notes = [], [], []
    for row in auto:
        if row.get("reason"):
            notes.append(f"{row['key']}: {row['reason']}")
            continue
        vs = row.get("versus_humans") or {}
        alt = row.get("alt_test") or {}
        d_rows.append(
            [
                row["key"],
                pct(row["coverage"]),
                pct(row["invalid_rate"]),
                str(row["n"]),
                num(row["p_o"]),
                est(row["cohen_kappa"]),
                num(row.get("macro_f1")),
                est(row.get("gwet_ac1")),
            ]
        )
        c_rows.append(
            [
                row["key"],
                num((vs.get("kappa_judge_human") or {}).get("value")),
                num((vs.get("kappa_human_human") or {}).get("value")),
                est(vs.get("delta_kappa")),
                est(vs.get("delta_alpha")),
                num(alt.get("winning_rate")) if alt else "—",
                ("pass" if alt.get("passed") else "fail") if alt else "—",
            ]
        )
        strat = row.get("stratified") or {}
        if strat:
            notes.append(
                f"{row['key']}: κ where humans were unanimous "
                f"{est(strat['unanimous'])} (n={strat['unanimous']['n']}), where they "
                f"split {est(strat['split'])} (n={strat['split']['n']})."
            )
    out.append(
        (
            "D · Automated raters against the humans",
            notes,
            [
                (
                    [
                        "rater",
                        "coverage",
                        "invalid",
                        "n",
                        "p_o vs consensus",
                        "Cohen κ vs consensus",
                        "macro-F1",
                        "AC1 vs consensus",
                    ],
                    d_rows,
                ),
                (
                    [
                        "rater",
                        "mean κ(J,H)",
                        "mean κ(H,H)",
                        "Δκ [paired CI]",
                        "α(H+J) − α(H) [paired CI]",
                        "alt-test ω",
                        "alt-test",
                    ],
                    c_rows,
                ),
            ],
        )
    )
    for key, drill in dash["drilldown"].items():
        if drill.get("reason"):
            continue
        per = [
            [
                label,
                str(c["support"]),
                num(c["precision"]),
                num(c["recall"]),
                num(c["f1"]),
                est(c["specific_agreement"]),
                est(c["alpha"]),
                est(c["kappa"]),
                pct(c["prevalence_humans"]),
                pct(c["prevalence_rater"]),
            ]
            for label, c in drill["per_class"].items()
        ]
        dis = [
            [
                d["uuid"],
                d["target_model"] or "—",
                d["consensus"],
                d["rater"],
                " ".join(d["humans"]),
                num(d["unanimity"], 2),
            ]
            for d in drill["disagreements"][:50]
        ]
        out.append(
            (
                f"E · Drill-down: {key}",
                [
                    f"{len(drill['disagreements'])} disagreement(s) with the consensus (first 50 "
                    "listed, unanimous humans first)."
                ],
                [
                    (
                        ["consensus ↓ / rater →", *LABELS],
                        [
                            [label, *map(str, row)]
                            for label, row in zip(LABELS, drill["confusion"], strict=True)
                        ],
                    ),
                    (
                        [
                            "class",
                            "support",
                            "precision",
                            "recall",
                            "F1",
                            "specific agreement",
                            "α one-vs-rest",
                            "κ one-vs-rest",
                            "prevalence humans",
                            "prevalence rater",
                        ],
                        per,
                    ),
                    (["item", "target model", "consensus", "rater", "humans", "unanimity"], dis),
                ],
            )
        )
    cal_rows = []
    for m in dash["metrics"]:
        cal = m.get("calibration")
        if cal:
            raw = cal["raw"]
            cal_rows.append(
                [
                    m["rater"],
                    m["target_model"] or "all",
                    str(raw["n"]),
                    num(raw["accuracy"]),
                    num(raw["nll"]),
                    num(raw["brier"]),
                    num(raw["ece"]),
                    str(raw["bins_used"]),
                ]
            )
    out.append(
        (
            "F · Calibration of log-prob scorers (against gold)",
            [
                "Probabilities: softmax over the four log-likelihoods; ECE over equal-mass bins."
                if cal_rows
                else "No scorer with log-likelihoods."
            ],
            [(["rater", "target model", "n", "accuracy", "NLL", "Brier", "ECE", "bins"], cal_rows)],
        )
    )
    out.append(_reveal(dash))
    metric_rows = [
        [m["rater"], m["target_model"] or "all", *metrics_cells(m)] for m in dash["metrics"]
    ]
    out.append(
        (
            "When2Call metrics against gold",
            [
                "macro-F1 ×100 in the reference-compatible form (sklearn macro over the labels "
                "present; raw argmax for log-prob scorers); Tool-Hall = share of no-tool "
                "cannot_answer items answered with a tool call."
            ],
            [
                (
                    ["rater", "target model", *METRICS_HEADERS],
                    metric_rows,
                )
            ],
        )
    )
    stable = [m for m in dash["metrics"] if m.get("stability")]
    if stable:
        out.append(
            (
                "Stability over repeats",
                [
                    "Over the rater's own k repeats where a run used --repeats, else over the "
                    "target model's k responses per unit; shares are over the units with a run "
                    "(API-suite definitions: Stability@k = all k agree)."
                ],
                [
                    (
                        ["rater", "target model", *STABILITY_HEADERS],
                        [
                            [
                                m["rater"],
                                m["target_model"] or "all",
                                *stability_cells(m["stability"]),
                            ]
                            for m in stable
                        ],
                    )
                ],
            )
        )
    return out


def markdown(dash: dict[str, Any]) -> str:
    """The report as Markdown."""
    lines = [f"# Calibration report: {dash['meta']['dataset']}", ""]
    for title, paragraphs, tables in sections(dash):
        lines += [f"## {title}", ""]
        for paragraph in paragraphs:
            lines += [paragraph, ""]
        for header, rows in tables:
            if not rows:
                continue
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "---|" * len(header))
            lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
            lines.append("")
    return "\n".join(lines)


def html(dash: dict[str, Any]) -> str:
    """The report as one self-contained HTML page (charts are inline SVG images)."""
    charts = _charts(dash)
    body = [f"<h1>Calibration report: {escape(dash['meta']['dataset'])}</h1>"]
    for title, paragraphs, tables in sections(dash):
        body.append(f"<h2>{escape(title)}</h2>")
        body += [f"<p>{_bold(escape(p))}</p>" for p in paragraphs]
        for src, alt in charts.get(title.split(" · ")[0], []):
            body.append(f"<img src='{src}' alt='{escape(alt)}'>")
        for header, rows in tables:
            if not rows:
                continue
            body.append("<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in header) + "</tr>")
            body += [
                "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows
            ]
            body.append("</table>")
    style = (
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
        "padding:3px 8px;font-size:13px}th{background:#f3f3f3}img{margin:.5em 1em .5em 0}"
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>w2c-tui calibration "
        f"report</title><style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )


def as_json(dash: dict[str, Any]) -> str:
    """The dashboard document itself."""
    return (
        json.dumps(
            {k: v for k, v in dash.items() if not k.startswith("_")}, ensure_ascii=False, indent=2
        )
        + "\n"
    )


def _bold(text: str) -> str:
    parts = text.split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))


def _charts(dash: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    charts: dict[str, list[tuple[str, str]]] = {}
    h = dash["humans"]
    if not h.get("reason"):
        charts.setdefault("C", []).append(
            (
                data_uri(
                    intervals(
                        [
                            ("Krippendorff α", h["krippendorff_alpha"]),
                            ("Fleiss κ", h["fleiss_kappa"]),
                            ("Gwet AC1", h["gwet_ac1"]),
                        ],
                        "human reliability (dashed: .667 and .800)",
                    )
                ),
                "human reliability intervals",
            )
        )
    rows = [(r["key"], r.get("cohen_kappa")) for r in dash["automated"] if not r.get("reason")]
    if rows:
        charts.setdefault("D", []).append(
            (data_uri(intervals(rows, "Cohen κ against the human consensus")), "kappa intervals")
        )
    for key, drill in dash["drilldown"].items():
        if not drill.get("reason"):
            charts.setdefault("E", []).append(
                (
                    data_uri(
                        heatmap(
                            drill["confusion"], SHORT, SHORT, f"{key}: consensus (rows) × rater"
                        )
                    ),
                    f"confusion matrix of {key}",
                )
            )
    for m in dash["metrics"]:
        if m.get("calibration"):
            charts.setdefault("F", []).append(
                (
                    data_uri(
                        reliability(
                            m["calibration"]["raw"]["reliability"],
                            f"{m['rater']} · {m['target_model']}",
                        )
                    ),
                    "reliability diagram",
                )
            )
    return charts
