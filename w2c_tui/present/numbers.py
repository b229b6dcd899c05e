"""Numbers as text for tables, screens and reports (TUI, CLI text, io/report): one format
everywhere. Presentation, shared by every front end; it reads domain documents only."""

from __future__ import annotations

from w2c_tui.domain.dashboard import EstimateDoc, MetricsDoc, StabilityDoc


def num(value: object, digits: int = 3) -> str:
    """A number for a table cell: floats to `digits` places, '—' when undefined."""
    if value is None:
        return "—"
    if isinstance(value, float) and not isinstance(value, bool):
        return f"{value:.{digits}f}"
    return str(value)


def f1(value: object) -> str:
    """An F1 (or macro-F1) on the one scale used everywhere: ×100 with one decimal."""
    return f"{100 * value:.1f}" if isinstance(value, float | int) else "—"


F1_UNIT = "×100"
"""Said in every header that shows an F1 (`f1` above)."""


def pct(value: object) -> str:
    """A share as a percentage with one decimal, '—' when undefined."""
    return f"{100 * value:.1f}%" if isinstance(value, float | int) else "—"


def estimate_text(est: EstimateDoc | None, *, ci_digits: int = 2, with_reason: bool = False) -> str:
    """An estimate document as '0.712 [0.65, 0.77]', the value alone, or '—' (+ reason)."""
    if est is None or est.value is None:
        reason = est.reason if est else None
        return f"— ({reason})" if with_reason and reason else "—"
    ci = est.ci
    text = num(est.value)
    return text + (f" [{num(ci[0], ci_digits)}, {num(ci[1], ci_digits)}]" if ci else "")


METRICS_HEADERS: tuple[str, ...] = (
    "n",
    "macro-F1 ×100",
    "Acc",
    "Acc-Norm",
    "Tool-Hall",
    "Answer-Hall",
    "Param-Hall",
    "invalid",
)
"""Column names of `metrics_cells` (macro-F1 ×100, reference-compatible)."""


METRICS_KEYS: tuple[str, ...] = (
    "macro_f1_ref",
    "accuracy",
    "accuracy_norm",
    "tool_hallucination",
    "answer_hallucination",
    "parameter_hallucination",
    "invalid_rate",
)
"""The metrics behind METRICS_HEADERS[1:], by their names in `MetricsDoc.intervals`."""


def _hundred(value: float) -> str:
    return f"{100 * value:.1f}"


def interval_text(est: EstimateDoc, *, percent: bool, sep: str = " ") -> str:
    """A metric estimate on the ×100 scale: '45.0% [38.1, 52.0]', 'too few (n=4)' or '—'."""
    if est.value is None:
        if est.reason and est.reason.startswith("too few"):
            return f"too few (n={est.n})"
        return "—"
    text = _hundred(est.value) + ("%" if percent else "")
    if est.ci is None:
        return text
    return f"{text}{sep}[{_hundred(est.ci[0])}, {_hundred(est.ci[1])}]"


def metric_cell(m: MetricsDoc, key: str, *, sep: str = " ") -> str:
    """One metric of a metrics document as a cell: with its interval when the document has
    intervals, else the point value (macro-F1s ×100, the rest as percentages)."""
    percent = not key.startswith(("macro_f1", "f1_"))
    if m.intervals is not None:
        est = m.intervals.get(key)
        return interval_text(est, percent=percent, sep=sep) if est is not None else "—"
    value = {
        "tool_hallucination": m.tool_hallucination.rate,
        "answer_hallucination": m.answer_hallucination.rate,
        "parameter_hallucination": m.parameter_hallucination.rate,
    }.get(key, getattr(m, key, None))
    return pct(value) if percent else f1(value)


def slice_cells(
    macro_f1: float | None,
    macro_f1_interval: EstimateDoc | None,
    accuracy: float | None,
    accuracy_interval: EstimateDoc | None,
    *,
    sep: str = " ",
) -> list[str]:
    """A slice row's macro-F1 (×100) and accuracy (%), with intervals where it has them."""
    return [
        interval_text(macro_f1_interval, percent=False, sep=sep)
        if macro_f1_interval is not None
        else f1(macro_f1),
        interval_text(accuracy_interval, percent=True, sep=sep)
        if accuracy_interval is not None
        else pct(accuracy),
    ]


def metrics_cells(m: MetricsDoc, *, sep: str = " ") -> list[str]:
    """One metrics document as table cells, in METRICS_HEADERS order; `sep` goes between a
    value and its interval ("\n": the interval on a second line)."""
    return [str(m.n_scored), *(metric_cell(m, key, sep=sep) for key in METRICS_KEYS)]


STABILITY_HEADERS: tuple[str, ...] = (
    "over",
    "k",
    "units",
    "Stab@k",
    "Cons@k",
    "stable✓",
    "stable✗",
    "mode✓",
    "acc",
    "entropy",
    "flips",
)
"""Column names of `stability_cells` (shares are over the units with at least one run):
Stability@k (all k agree), MeanConsistency@k, stable and correct, stable but wrong, mode
correct, mean accuracy over the k, normalised entropy, flip rate."""


def stability_cells(stab: StabilityDoc) -> list[str]:
    """One stability document (metrics' `stability`) as table cells, in STABILITY_HEADERS order."""
    ks = str(stab.k) if stab.k is not None else f"{stab.k_min}–{stab.k_max}"
    values = stab.over_processed
    return [
        stab.over,
        ks,
        str(stab.n_processed),
        pct(values.get("stability_at_k")),
        pct(values.get("mean_consistency_at_k")),
        pct(values.get("stable_and_correct_rate")),
        pct(values.get("stable_but_wrong_rate")),
        pct(values.get("mode_correct_rate")),
        pct(values.get("mean_accuracy_across_runs")),
        num(values.get("mean_normalized_entropy")),
        num(values.get("mean_flip_rate")),
    ]
