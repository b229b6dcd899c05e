"""Report section D′: MCQ-vs-generation consistency (no stand-in decision; see
domain.dashboard_consistency)."""

from __future__ import annotations

from w2c_tui.domain.dashboard import DashboardDoc
from w2c_tui.io.report.model import Section, TableSpec
from w2c_tui.present import consistency as present


def consistency(dash: DashboardDoc) -> list[Section]:
    """The section on behaviour units (none in item QA): the rows, then each confusion."""
    doc = dash.mcq_consistency
    if doc is None:
        return []
    section = Section(f"D′ · {present.TITLE}", [present.NOTE, f"Reference: {doc.reference}."])
    if not doc.rows:
        section.paragraphs.append("No MCQ readings of the target models in this dataset.")
        return [section]
    section.tables.append(
        TableSpec(list(present.HEADERS), [present.row_cells(row) for row in doc.rows])
    )
    for row in doc.rows:
        section.tables.append(
            TableSpec(
                [f"{row.scorer} · {row.target_model or '—'}", *present.SHORT],
                present.confusion_rows(row),
            )
        )
    section.paragraphs.append(f"Confusions: {present.CONFUSION_CORNER}; {present.LEGEND}.")
    return [section]
