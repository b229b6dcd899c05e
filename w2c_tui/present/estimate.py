"""Judge-corrected scores as text: the same cells in the dashboard's tab and the report."""

from __future__ import annotations

from w2c_tui.domain.estimate import CorrectedDoc, IntervalDoc

CORRECTED_HEADERS = [
    "model",
    "judge",
    "metric",
    "judge only ×100",
    "humans only ×100",
    "corrected ×100",
    "labelled",
    "unlabelled",
    "invalid",
    "λ",
    "labels to halve",
]
CORRECTED_NOTE = (
    "Corrected: the judge's verdicts on every response, corrected by the human reference "
    "where there is one (PPI++ with power-tuned λ; macro_f1: plug-in with a seeded "
    "bootstrap). Judge only leaves the judge's bias uncorrected; humans only uses the labelled "
    "units alone. 95% intervals. Units with an invalid judge verdict are left out of both sets "
    "(the invalid column). Labels to halve: labelled units in all that would halve the "
    "corrected interval ('—': the judge's part dominates, labels alone cannot)."
)


def interval(doc: IntervalDoc, scale: float = 100.0, *, with_reason: bool = False) -> str:
    """`62.4 [57.1, 67.7]`, or `—` (with the reason when asked) when not defined."""
    if doc.value is None or doc.ci is None:
        head = f"{scale * doc.value:.1f}" if doc.value is not None else "—"
        return f"{head} ({doc.reason})" if with_reason and doc.reason else head
    low, high = doc.ci
    return f"{scale * doc.value:.1f} [{scale * low:.1f}, {scale * high:.1f}]"


def corrected_cells(doc: CorrectedDoc) -> list[str]:
    """One row of the corrected-scores table (see CORRECTED_HEADERS)."""
    return [
        doc.target_model,
        doc.judge,
        doc.metric.value,
        f"{interval(doc.judge_only)} n={doc.judge_only.n}",
        f"{interval(doc.humans_only)} n={doc.humans_only.n}",
        interval(doc.corrected),
        str(doc.n_labelled),
        str(doc.n_unlabelled),
        str(doc.n_invalid),
        f"{doc.lam:.2f}" if doc.lam is not None else "—",
        str(doc.labels_to_halve) if doc.labels_to_halve is not None else "—",
    ]
