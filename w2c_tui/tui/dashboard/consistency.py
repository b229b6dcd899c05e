"""The judges tab's MCQ-vs-generation section: each target model's MCQ choice against the human
labels of its generated responses, with no stand-in decision (domain.dashboard_consistency)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from w2c_tui.domain.dashboard import ConsistencyDoc
from w2c_tui.present import consistency as present
from w2c_tui.tui.dashboard.common import Legend, table
from w2c_tui.tui.plain import cells

PER_LINE = 2
"""Confusions side by side: two fit beside the raters list at 160 columns."""


def consistency(doc: ConsistencyDoc, legend: Legend) -> RenderableType:
    """The rows (raters as R1, R2, …), then one small confusion per row, two per line."""
    parts: list[RenderableType] = [
        Text(present.TITLE, style="bold"),
        Text(present.NOTE, style="dim"),
    ]
    if not doc.rows:
        parts.append(Text("No MCQ readings of the target models yet.", style="italic"))
        return Group(*parts)
    parts.append(Text(f"Reference: {doc.reference}.", style="dim"))
    rows = table(*present.HEADERS)
    for row in doc.rows:
        rows.add_row(*cells(*present.row_cells(row, legend.short(row.scorer))))
    matrices = []
    for row in doc.rows:
        matrix = table(
            present.CONFUSION_CORNER,
            *present.SHORT,
            title=f"{legend.short(row.scorer)} · {row.target_model or '—'}",
        )
        for line in present.confusion_rows(row):
            matrix.add_row(*cells(*line))
        matrices.append(matrix)
    grid = Table.grid(padding=(0, 3))  # two per line: a fixed width, unlike Columns' (all in one)
    for start in range(0, len(matrices), PER_LINE):
        grid.add_row(*matrices[start : start + PER_LINE])
    parts.extend([rows, grid, Text(present.LEGEND, style="dim")])
    return Group(*parts)
