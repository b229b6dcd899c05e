"""The slices tab: each automated rater on the units of one gold class, tool bucket, source or
model, each slice with its n."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import DashboardDoc
from w2c_tui.present.numbers import estimate_text, slice_cells
from w2c_tui.tui.dashboard.common import Legend, table
from w2c_tui.tui.plain import cells


def slices(dash: DashboardDoc) -> RenderableType:
    """One table: slice, n, then per rater κ vs consensus and macro-F1 / accuracy vs gold."""
    doc = dash.slices
    if doc is None:
        return Text(
            "No slices: s cycles gold class → tool count (0 / 1 / 2+) → source → model.",
            style="italic",
        )
    legend = Legend(dash.meta.raters)
    t = table(
        f"{doc.by}",
        "units",
        "rater",
        "n (cons.)",
        "κ vs consensus [95% CI]",
        "n (gold)",
        "macro-F1 ×100 vs gold",
        "acc",
        title=f"by {doc.by} (s: next slicing)",
    )
    for part in doc.slices:
        for index, row in enumerate(part.rows or [None]):
            if row is None:
                t.add_row(*cells(part.name, str(part.n_units), "—", "", "", "", "", ""))
                continue
            t.add_row(
                *cells(
                    part.name if index == 0 else "",
                    str(part.n_units) if index == 0 else "",
                    legend.short(row.rater),
                    str(row.n_consensus),
                    estimate_text(row.cohen_kappa, with_reason=row.n_consensus == 0),
                    str(row.n_gold),
                    *slice_cells(
                        row.macro_f1,
                        row.macro_f1_interval,
                        row.accuracy,
                        row.accuracy_interval,
                        sep="\n",
                    ),
                )
            )
    return Group(t, legend.text())
