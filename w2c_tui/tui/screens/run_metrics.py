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

from w2c_tui.present.numbers import STABILITY_HEADERS, f1, pct, stability_cells

if TYPE_CHECKING:
    from w2c_tui.domain.runs import RunInfo
    from w2c_tui.services import Services

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
            for r in self.services.metrics.metrics(self.info.config.dataset)
            if r.rater.kind.value == kind and r.rater.name == name
        ]
        with VerticalScroll(classes="dialog dialog--wide"):
            yield Static(
                f"Run {self.info.id}: {self.info.rater} against gold (Esc closes)",
                classes="dialog--title",
                markup=False,
            )
            if not rows:
                yield Static("No verdicts with a gold label yet.")
            for row in rows:
                m = row.metrics
                table = Table(
                    "n",
                    "macro-F1 ×100",
                    "Acc",
                    "Acc-Norm",
                    "Tool-Hall",
                    "invalid",
                    title=Text(f"{row.target_model}"),
                )
                table.add_row(
                    str(m.n_scored),
                    f1(m.macro_f1_ref),
                    pct(m.accuracy),
                    pct(m.accuracy_norm),
                    pct(m.tool_hallucination["rate"]),
                    pct(m.invalid_rate),
                )
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
