"""MCQ-vs-generation consistency as table cells: one format for the CLI, the dashboard's judges
tab and the report."""

from __future__ import annotations

from w2c_tui.domain.dashboard import ConsistencyRowDoc, EstimateDoc
from w2c_tui.present.numbers import estimate_text, pct

TITLE = "MCQ-vs-generation consistency"
NOTE = (
    "On responses an MCQ reading is the model's own choice among the four canned answers, made "
    "without generating; the human label says what the same model wrote. Their agreement says "
    "whether the model behaves alike in both formats (two scores of the model, as in the "
    "When2Call paper's Table 5), not whether the scorer can replace a human rater: no stand-in "
    "decision here."
)
HEADERS: tuple[str, ...] = (
    "MCQ reading",
    "target model",
    "n",
    "agreement [95% CI]",
    "Cohen κ [95% CI]",
    "MCQ readings",
    "invalid",
    "human reference",
)
SHORT = ("DA", "TC", "RI", "CA")
"""Row and column names of the confusion (direct, tool_call, request_for_info, cannot_answer)."""
CONFUSION_CORNER = "generated ↓ / MCQ →"


def share_text(value: EstimateDoc) -> str:
    """A share with its interval, in %: '71.4% [52.0%, 88.0%]', or the reason it has none."""
    if value.value is None:
        return value.reason or "—"
    ci = value.ci
    return pct(value.value) + (f" [{pct(ci[0])}, {pct(ci[1])}]" if ci else "")


def row_cells(row: ConsistencyRowDoc, scorer: str | None = None) -> list[str]:
    """One row in HEADERS order (`scorer`: a shorter name for the reading, e.g. R4)."""
    kappa = row.cohen_kappa
    return [
        scorer or row.scorer,
        row.target_model or "—",
        str(row.n),
        share_text(row.agreement),
        estimate_text(kappa) if kappa.value is not None else (kappa.reason or "—"),
        str(row.n_mcq),
        str(row.n_invalid),
        str(row.n_reference),
    ]


def confusion_rows(row: ConsistencyRowDoc) -> list[list[str]]:
    """The confusion as rows of text cells: the generated behaviour, then its MCQ counts."""
    return [[name, *map(str, line)] for name, line in zip(SHORT, row.confusion, strict=True)]


LEGEND = "generated: the human reference of the response · DA direct answer · TC tool call · "
LEGEND += "RI request for info · CA cannot answer"
