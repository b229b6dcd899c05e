"""The corrected-scores tab: each target model's When2Call metrics as each judge sees them,
raw (judge only), humans only and corrected by the humans (prediction-powered inference)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import DashboardDoc
from w2c_tui.present.estimate import CORRECTED_HEADERS, CORRECTED_NOTE, corrected_cells
from w2c_tui.tui.dashboard.common import table
from w2c_tui.tui.plain import cells


def corrected(dash: DashboardDoc) -> RenderableType:
    """One row per target model, judge and metric, with intervals and n."""
    if not dash.corrected:
        return Text(
            "No corrected scores: no response that a chosen judge read has a human "
            "reference yet (label some responses, or choose a judge on the left), or the "
            "units are items (u).",
            style="italic",
        )
    t = table(*CORRECTED_HEADERS, title="Judge-corrected When2Call scores (95% intervals)")
    previous: tuple[str, str] | None = None
    for doc in dash.corrected:
        if previous is not None and previous != (doc.target_model, doc.judge):
            t.add_section()
        previous = (doc.target_model, doc.judge)
        t.add_row(*cells(*corrected_cells(doc)))
    undefined = [
        f"{doc.target_model} · {doc.metric.value}: {doc.corrected.reason}"
        for doc in dash.corrected
        if doc.corrected.reason
    ]
    parts: list[RenderableType] = [t, Text(CORRECTED_NOTE, style="dim")]
    if undefined:
        parts.append(Text("Not defined: " + " · ".join(undefined), style="dim"))
    return Group(*parts)
