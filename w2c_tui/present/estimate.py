"""Judge-corrected scores as text: the same cells in the dashboard's tab and the report."""

from __future__ import annotations

from w2c_tui.domain.estimate import CorrectedDoc, IntervalDoc

METRIC_HEADERS = [
    "metric",
    "judge only",
    "humans only",
    "corrected",
    "n lab/unl/inv",
    "λ",
    "to halve",
]
CORRECTED_HEADERS = ["model", "judge", *METRIC_HEADERS]
CORRECTED_NOTE = (
    "×100, 95% intervals (cut at 0 and 100 here; --json and `w2c estimate --json` give them "
    "uncut). Corrected: the judge's verdicts on every response, corrected by the human "
    "reference where there is one (PPI++ with power-tuned λ; macro_f1: plug-in with a seeded "
    "bootstrap). Judge only leaves the judge's bias uncorrected; humans only uses the "
    "labelled units alone. n lab/unl/inv: labelled, unlabelled, and units left out of both "
    "because the judge's verdict is invalid. To halve: labelled units in all that would halve "
    "the corrected interval ('—': the judge's part dominates, labels alone cannot; n/a: no "
    "interval)."
)


def interval(
    doc: IntervalDoc, scale: float = 100.0, *, with_reason: bool = False, cut: bool = True
) -> str:
    """`62.4 [57.1, 67.7]` (the interval cut to [0, scale] unless `cut` is off: every metric
    here is a share), or the value alone / `—`, with the reason when asked, when not defined."""
    if doc.value is None or doc.ci is None:
        head = f"{scale * doc.value:.1f}" if doc.value is not None else "—"
        return f"{head} ({doc.reason})" if with_reason and doc.reason else head
    low, high = (scale * bound for bound in doc.ci)
    if cut:
        low, high = max(low, 0.0), min(high, scale)
    return f"{scale * doc.value:.1f} [{low:.1f}, {high:.1f}]"


def metric_cells(doc: CorrectedDoc) -> list[str]:
    """One metric's cells (see METRIC_HEADERS)."""
    return [
        doc.metric.value,
        f"{interval(doc.judge_only)} n={doc.judge_only.n}",
        f"{interval(doc.humans_only)} n={doc.humans_only.n}",
        interval(doc.corrected),
        f"{doc.n_labelled}/{doc.n_unlabelled}/{doc.n_invalid}",
        f"{doc.lam:.2f}" if doc.lam is not None else "—",
        _halve(doc),
    ]


def _halve(doc: CorrectedDoc) -> str:
    if doc.labels_to_halve is not None:
        return str(doc.labels_to_halve)
    return "—" if doc.corrected.ci is not None else "n/a"


def corrected_cells(doc: CorrectedDoc) -> list[str]:
    """One row of the flat corrected-scores table (see CORRECTED_HEADERS)."""
    return [doc.target_model, doc.judge, *metric_cells(doc)]


def undefined_notes(docs: tuple[CorrectedDoc, ...] | list[CorrectedDoc]) -> list[str]:
    """Each reason a corrected value or interval is not defined, once, with where."""
    where: dict[str, list[str]] = {}
    for doc in docs:
        if doc.corrected.reason:
            where.setdefault(doc.corrected.reason, []).append(
                f"{doc.target_model} · {doc.metric.value}"
            )
    return [f"{', '.join(places)}: {reason}" for reason, places in where.items()]
