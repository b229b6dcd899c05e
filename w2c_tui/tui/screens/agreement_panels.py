"""Rich renderables for the agreement screen's panels, from the dashboard document."""

from __future__ import annotations

from typing import Any

from rich import box as boxes
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from w2c_tui.io.numbers import (
    METRICS_HEADERS,
    STABILITY_HEADERS,
    estimate_text,
    metrics_cells,
    pct,
    stability_cells,
)
from w2c_tui.io.numbers import num as fmt
from w2c_tui.tui.plain import cells
from w2c_tui.tui.widgets.charts import bar, interval_bar

LABELS = ["direct", "tool_call", "request_for_info", "cannot_answer"]


def overview(dash: dict[str, Any]) -> RenderableType:
    """Panels A (coverage), B (distributions) and C (human reliability)."""
    meta = dash["meta"]
    cov = dash["coverage"]
    head = Text()
    head.append(
        f"{meta['dataset']}: {meta['n_units']} units ({meta['unit_kind']}), "
        f"{len(meta['raters'])} raters; human reference on {meta['consensus']['n']} units: "
        f"{meta['consensus']['adjudicated']} adjudicated, {meta['consensus']['majority']} by "
        f"majority of ≥{meta['min_humans']} human(s), {meta['consensus']['ties_excluded']}"
        f" ties excluded; invalid outputs counted as {meta['invalid_mode']}; "
        f"bootstrap B={meta['bootstrap']['B']} seed={meta['bootstrap']['seed']}",
        style="dim",
    )
    a = _table(
        "rater",
        "kind",
        "rated",
        "coverage",
        "invalid",
        title="A · coverage",
        title_justify="left",
        expand=False,
    )
    for row in cov["raters"]:
        a.add_row(
            *cells(
                row["key"],
                row["kind"],
                str(row["n_rated"]),
                pct(row["coverage"]),
                f"{row['n_invalid']} ({pct(row['invalid_rate'])})",
            )
        )
    per_unit = "  ".join(f"{k} rating(s): {v}" for k, v in cov["ratings_per_unit"].items())
    overlap = cov["overlap"]
    o = _table("", *[_short(k) for k in overlap["raters"]], title="overlap (units both rated)")
    for key, counts in zip(overlap["raters"], overlap["matrix"], strict=True):
        o.add_row(*cells(_short(key), *[str(c) for c in counts]))
    dist = dash["distributions"]
    b = _table("rater", "n", *LABELS, "invalid", title="B · label distributions")
    for key, counts in [
        *dist["raters"].items(),
        ("humans pooled", dist["humans_pooled"]),
        ("consensus", dist["consensus"]),
    ]:
        n = counts["n"]
        b.add_row(
            *cells(
                key,
                str(n),
                *[f"{counts[c]} ({pct(counts[c] / n if n else None)})" for c in LABELS],
                str(counts["invalid"]),
            )
        )
    sm = dist.get("stuart_maxwell") or {}
    homog = Text()
    for key, result in sm.items():
        homog.append(
            f"Stuart–Maxwell {key} vs consensus: χ²={fmt(result.get('statistic'), 2)} "
            f"df={result.get('df')} p={fmt(result.get('p_value'), 4)}"
            + (f" (dropped {', '.join(result['dropped'])})" if result.get("dropped") else "")
            + "\n",
            style="dim",
        )
    return Group(
        head, Text(""), a, Text(per_unit, style="dim"), o, b, homog, humans(dash), reveal(dash)
    )


def reveal(dash: dict[str, Any]) -> RenderableType:
    """What the reveal did: post-reveal flips, agreement with each rater before and after."""
    doc = dash.get("reveal") or {}
    rows = doc.get("annotators") or []
    if not rows:
        return Text("Reveal effects: no human labels yet.", style="italic")
    t = _table(
        "annotator",
        "labelled",
        "blind first",
        "flips",
        "vs rater",
        "n",
        "agree pre",
        "agree now",
        "κ pre",
        "κ now",
        title="Reveal effects (pre-reveal = first label made blind)",
    )
    for row in rows:
        versus = row["versus"] or [None]
        for index, v in enumerate(versus):
            first = index == 0
            t.add_row(
                *cells(
                    row["annotator"] if first else "",
                    str(row["units_labelled"]) if first else "",
                    str(row["first_labels_blind"]) if first else "",
                    str(row["post_reveal_flips"]) if first else "",
                    _short(v["rater"]) if v else "—",
                    str(v["n"]) if v else "",
                    pct(v["agreement_pre_reveal"]) if v else "",
                    pct(v["agreement_current"]) if v else "",
                    fmt(v["kappa_pre_reveal"]["value"]) if v else "",
                    fmt(v["kappa_current"]["value"]) if v else "",
                )
            )
    return Group(t, Text(doc["definition"], style="dim"))


def humans(dash: dict[str, Any]) -> RenderableType:
    """Panel C: human reliability, the ceiling."""
    h = dash["humans"]
    if h.get("reason"):
        return Text(f"C · human reliability: {h['reason']}", style="italic")
    c = _table("statistic", "value [95% CI]", "", title="C · human reliability (the ceiling)")
    for name, key, low in (
        ("Krippendorff α (nominal)", "krippendorff_alpha", -1.0),
        ("percent agreement", "percent_agreement", 0.0),
        ("Fleiss κ (generalised)", "fleiss_kappa", -1.0),
        ("Gwet AC1", "gwet_ac1", -1.0),
    ):
        c.add_row(*cells(name, estimate_text(h[key]), interval_bar(h[key], low=low)))
    c.add_row(*cells("mean pairwise Cohen κ", fmt(h["mean_pairwise_kappa"]), ""))
    below = h.get("p_alpha_below") or {}
    note = Text(
        f"{h['interpretation']}.  P(α<.667)={fmt(below.get('0.667'), 3)}  "
        f"P(α<.800)={fmt(below.get('0.800'), 3)}  units with ≥2 human labels: "
        f"{h.get('n_units_2plus')}",
        style="bold",
    )
    return Group(c, note)


def raters(dash: dict[str, Any]) -> RenderableType:
    """Panel D: one row per automated rater against the humans."""
    rows = dash["automated"]
    if not rows:
        return Text("No judge or scorer readings in this dataset yet.", style="italic")
    t = _table(
        "rater",
        "invalid",
        "n",
        "p_o",
        "Cohen κ vs consensus [95% CI]",
        "−1 ···· 0 ···· 1",
        "macro-F1",
        title="D · automated raters against the human consensus",
    )
    h = _table(
        "rater",
        "AC1 [95% CI]",
        "κ(J,H)",
        "κ(H,H)",
        "Δκ [paired CI]",
        "Δα [paired CI]",
        "alt-test ω",
        title="… and against the human ceiling",
    )
    for table in (t, h):
        for column in table.columns:
            column.no_wrap = True
    notes = []
    for row in rows:
        if row.get("reason"):
            notes.append(f"{row['key']}: {row['reason']}")
            continue
        vs = row.get("versus_humans") or {}
        alt = row.get("alt_test") or {}
        t.add_row(
            *cells(
                row["key"],
                pct(row["invalid_rate"]),
                str(row["n"]),
                fmt(row["p_o"]),
                estimate_text(row["cohen_kappa"]),
                interval_bar(row["cohen_kappa"], width=17),
                fmt(row.get("macro_f1")),
            )
        )
        h.add_row(
            *cells(
                row["key"],
                estimate_text(row.get("gwet_ac1")),
                fmt((vs.get("kappa_judge_human") or {}).get("value")),
                fmt((vs.get("kappa_human_human") or {}).get("value")),
                estimate_text(vs.get("delta_kappa")),
                estimate_text(vs.get("delta_alpha")),
                (fmt(alt.get("winning_rate")) + (" pass" if alt.get("passed") else " fail"))
                if alt and alt.get("winning_rate") is not None
                else "—",
            )
        )
    parts: list[RenderableType] = [t, h]
    for row in rows:
        strat = row.get("stratified")
        if strat:
            parts.append(
                Text(
                    f"{row['key']}: κ on units where humans were unanimous "
                    f"{estimate_text(strat['unanimous'])} (n={strat['unanimous']['n']}),"
                    f" split {estimate_text(strat['split'])} (n={strat['split']['n']})",
                    style="dim",
                )
            )
        if row.get("cohen_kappa_invalid_wrong"):
            parts.append(
                Text(
                    f"{row['key']}: κ with invalid outputs counted as wrong "
                    f"{estimate_text(row['cohen_kappa_invalid_wrong'])}",
                    style="dim",
                )
            )
    parts.extend(Text(n, style="italic") for n in notes)
    parts.append(
        Text(
            "κ(J,H): mean κ of the rater with each human; κ(H,H): mean κ between "
            "humans; Δκ = κ(J,H) − κ(H,H) and Δα = α(humans + rater) − α(humans) "
            "with intervals from the same resamples; ω: alternative-annotator test "
            "winning rate (≥3 humans; passes at ω ≥ 0.5).",
            style="dim",
        )
    )
    return Group(*parts)


def per_class(drill: dict[str, Any]) -> RenderableType:
    """Panel E's per-class table."""
    t = _table(
        "class",
        "support",
        "precision",
        "recall",
        "F1",
        "specific agr.",
        "α (1-vs-rest)",
        "κ (1-vs-rest)",
        "prev. humans",
        "prev. rater",
        title="per class",
    )
    for label in LABELS:
        c = drill["per_class"][label]
        t.add_row(
            *cells(
                label,
                str(c["support"]),
                fmt(c["precision"]),
                fmt(c["recall"]),
                fmt(c["f1"]),
                estimate_text(c["specific_agreement"]),
                estimate_text(c["alpha"]),
                estimate_text(c["kappa"]),
                pct(c["prevalence_humans"]),
                pct(c["prevalence_rater"]),
            )
        )
    return t


def calibration(dash: dict[str, Any]) -> RenderableType:
    """Panel F: probabilistic calibration of log-prob scorers (against gold)."""
    parts: list[RenderableType] = []
    for row in dash["metrics"]:
        cal = row.get("calibration")
        if not cal:
            continue
        raw = cal["raw"]
        parts.append(
            Text(
                f"{row['rater']} · {row['target_model']} — {cal['probabilities']}: "
                f"accuracy {fmt(raw['accuracy'])}  NLL {fmt(raw['nll'])}  Brier "
                f"{fmt(raw['brier'])}  ECE {fmt(raw['ece'])} ({raw['bins_used']} "
                "equal-mass bins)",
                style="bold",
            )
        )
        t = _table("bin", "n", "mean confidence", "accuracy", "", box=None)
        for index, b in enumerate(raw["reliability"], 1):
            t.add_row(
                *cells(
                    str(index),
                    str(b["n"]),
                    fmt(b["mean_confidence"]),
                    fmt(b["accuracy"]),
                    Text(bar(b["accuracy"], 20))
                    + Text("  conf ", style="dim")
                    + Text(bar(b["mean_confidence"], 20), style="dim"),
                )
            )
        parts.append(t)
        norm = cal.get("length_normalised")
        if norm:
            parts.append(
                Text(
                    f"length-normalised softmax: accuracy {fmt(norm['accuracy'])}  NLL "
                    f"{fmt(norm['nll'])}  Brier {fmt(norm['brier'])}  ECE "
                    f"{fmt(norm['ece'])}",
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


def metrics(dash: dict[str, Any]) -> RenderableType:
    """When2Call metrics against gold: the paper's Table 3 columns and more."""
    t = _table(
        "rater",
        "target model",
        *METRICS_HEADERS,
        "F1 (4 labels)",
        "F1 (no direct)",
        title="When2Call metrics against gold (macro-F1 ×100: reference-compatible, over "
        "the labels present)",
    )
    for column in t.columns:
        column.no_wrap = True
    t.columns[0].min_width = 22
    for m in dash["metrics"]:
        t.add_row(
            *cells(
                m["rater"],
                m["target_model"] or "all",
                *metrics_cells(m),
                fmt(m["macro_f1_4"]),
                fmt(m["macro_f1_no_direct"]),
            )
        )
    if not dash["metrics"]:
        return Text("No rater readings with a gold label.", style="italic")
    stable = [m for m in dash["metrics"] if m.get("stability")]
    if not stable:
        return t
    s = _table(
        "rater",
        "target model",
        *STABILITY_HEADERS,
        title="Stability over k repeats (runs with --repeats) or k responses per unit: "
        "Stab@k all k agree, Cons@k mean share of the mode, entropy normalised",
    )
    s.columns[0].min_width = 18
    s.columns[1].min_width = 12
    for m in stable:
        s.add_row(*cells(m["rater"], m["target_model"] or "all", *stability_cells(m["stability"])))
    return Group(t, Text(""), s)


def _table(
    *headers: str,
    title: str | None = None,
    box: boxes.Box | None = boxes.SIMPLE_HEAD,
    **kwargs: Any,
) -> Table:
    """A compact table (light box) for the panels."""
    kwargs.setdefault("title_justify", "left")
    kwargs.setdefault("pad_edge", False)
    return Table(*headers, title=title, box=box, **kwargs)


def _short(key: str) -> str:
    return key if len(key) <= 18 else key[:17] + "…"
