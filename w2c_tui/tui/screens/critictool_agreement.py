"""The CriticTool agreement panel: α, percent agreement and pairwise κ on detect, category and
observed policy, between the annotators, the model's self-critique and any judge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

if TYPE_CHECKING:
    from w2c_tui.services.critictool_agreement import CriticToolAgreement

TITLES = {
    "detect": "Detect (error in the last step)",
    "category": "Category",
    "observed_policy": "Observed policy (external)",
}


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def agreement_view(dataset: str, results: list[CriticToolAgreement]) -> Group:
    """Every label's coefficients and pairs as one renderable."""
    parts: list[Text | Table] = [Text(f"CriticTool agreement — {dataset} (Esc closes)", "bold")]
    for result in results:
        head = Text(f"\n{TITLES.get(result.label, result.label)}", "bold underline")
        parts.append(head)
        line = f"{result.units} units with ≥ 2 ratings · α = {_num(result.alpha.value)}"
        if result.alpha.reason:
            line += f" ({result.alpha.reason})"
        parts.append(Text(line + f" · agreement = {_num(result.percent.value)}"))
        if result.pairs:
            table = Table("rater", "rater", "n", "κ", "agreement", box=None, padding=(0, 2))
            for pair in result.pairs:
                table.add_row(
                    Text(pair.a),
                    Text(pair.b),
                    str(pair.n),
                    _num(pair.cohen_kappa.value),
                    _num(pair.percent_agreement.value),
                )
            parts.append(table)
    return Group(*parts)


class CriticToolAgreementDialog(ModalScreen[None]):
    """Shows `agreement_view`; Esc, a or ? closes."""

    BINDINGS = [Binding("escape,a,q", "close", "close", id="critic-agreement-close")]

    def __init__(self, dataset: str, results: list[CriticToolAgreement]) -> None:
        super().__init__()
        self._view = agreement_view(dataset, results)

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog dialog--wide", id="critic-agreement"):
            yield Static(self._view)

    def action_close(self) -> None:
        self.dismiss(None)
