"""The labelling guidelines beside the item (Markdown, one version of the dataset's text)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static

from w2c_tui.domain.team import Guideline


class GuidelinesPanel(VerticalScroll):
    """Shows a guideline version; hidden until asked for (G) or on a first visit."""

    DEFAULT_CSS = """
    GuidelinesPanel { display: none; width: 1fr; border-left: vkey $accent; padding: 0 1; }
    GuidelinesPanel > .guidelines--title { text-style: bold; color: $accent; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", classes="guidelines--title", markup=False)
        yield Markdown("")

    def show(self, guideline: Guideline) -> None:
        """Display `guideline` (its text is Markdown; names in the title are shown literally)."""
        title = self.query_one(".guidelines--title", Static)
        title.update(
            f"Guidelines · {guideline.dataset} · version {guideline.version} "
            f"({guideline.created_at:%Y-%m-%d})   G hides"
        )
        self.query_one(Markdown).update(guideline.text)
        self.scroll_home(animate=False)
