"""The corrected-scores tab: each target model's When2Call metrics as each judge sees them,
raw (judge only), humans only and corrected by the humans (prediction-powered inference)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import DashboardDoc
from w2c_tui.domain.estimate import CorrectedDoc
from w2c_tui.present.estimate import CORRECTED_NOTE, METRIC_HEADERS, metric_cells, undefined_notes
from w2c_tui.tui.dashboard.common import table
from w2c_tui.tui.plain import cells


def corrected(dash: DashboardDoc) -> RenderableType:
    """One table per target model and judge: a row per metric, with intervals and n."""
    if not dash.corrected:
        return Text(
            "No corrected scores: no response that a chosen judge read has a human "
            "reference yet (label some responses, or choose a judge on the left), or the "
            "units are items (u).",
            style="italic",
        )
    groups: dict[tuple[str, str], list[CorrectedDoc]] = {}
    for doc in dash.corrected:
        groups.setdefault((doc.target_model, doc.judge), []).append(doc)
    parts: list[RenderableType] = []
    for (model, judge), docs in groups.items():
        t = table(*METRIC_HEADERS, title=f"{model} as {judge} sees it (corrected by the humans)")
        for doc in docs:
            t.add_row(*cells(*metric_cells(doc)))
        parts.extend([t, Text("")])
    parts.append(Text(CORRECTED_NOTE, style="dim"))
    notes = undefined_notes(dash.corrected)
    if notes:
        parts.append(Text("Not defined: " + "; ".join(notes), style="dim"))
    return Group(*parts)
