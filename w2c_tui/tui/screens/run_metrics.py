"""A finished run's When2Call metrics, one key away from the runs screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from w2c_tui.present.numbers import (
    METRICS_HEADERS,
    STABILITY_HEADERS,
    metrics_cells,
    stability_cells,
)

if TYPE_CHECKING:
    from w2c_tui.domain.runs import RunInfo
    from w2c_tui.services import Services

BOOTSTRAP = 1000
"""The resamples behind the dialog's intervals: `w2c metrics`'s default, so the numbers match."""
LABELS = ["direct", "tool_call", "request_for_info", "cannot_answer"]


class RunMetricsDialog(ModalScreen[None]):
    """Metrics against gold for the run's rater, per target model, with confusion matrices."""

    BINDINGS = [Binding("escape,m,q", "close", "close")]

    def __init__(self, services: Services, info: RunInfo) -> None:
        super().__init__()
        self.services = services
        self.info = info

    def compose(self) -> ComposeResult:
        kind, _, name = (self.info.rater or "").partition(":")
        rows = [
            r
            for r in self.services.metrics.metrics(
                self.info.config.dataset, bootstrap=BOOTSTRAP, seed=0
            )
            if r.rater.kind.value == kind and r.rater.name == name
        ]
        with VerticalScroll(classes="dialog dialog--wide", id="run-metrics"):
            yield Static(
                f"Run {self.info.id}: {self.info.rater} against gold (Esc closes)",
                classes="dialog--title",
                markup=False,
            )
            yield Static(
                f"Under each value its 95% bootstrap interval over items (B={BOOTSTRAP}, "
                'seed 0, as `w2c metrics`); "too few" below 5 units.',
                classes="dialog--hint",
                markup=False,
            )
            if not rows:
                yield Static("No verdicts with a gold label yet.")
            for row in rows:
                m = row.metrics
                table = Table(*METRICS_HEADERS, title=Text(f"{row.target_model}"))
                table.add_row(*metrics_cells(row.document(), sep="\n"))
                yield Static(table)
                if row.stability:
                    repeats = Table(*STABILITY_HEADERS, title="stability")
                    repeats.add_row(*stability_cells(row.stability.document()))
                    yield Static(repeats)
                grid = Table("gold ↓ / rater →", *LABELS)
                for label, counts in zip(LABELS, m.confusion, strict=True):
                    grid.add_row(label, *map(str, counts))
                yield Static(grid)

    def action_close(self) -> None:
        self.dismiss(None)
