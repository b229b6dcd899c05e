"""The dataset's labelling guidelines beside the item on the review screen: G shows and hides
them (in place of the items list), and they open by themselves once on an annotator's first
visit and once per new version (marked seen)."""

from __future__ import annotations

from textual.screen import Screen

from w2c_tui.domain.team import Guideline
from w2c_tui.tui.review_views import ReviewController
from w2c_tui.tui.widgets.guidelines import GuidelinesPanel
from w2c_tui.tui.widgets.items_list import ItemsList


class ReviewGuidelines:
    """Shows, hides and offers the guidelines of the screen's dataset to its annotator."""

    def __init__(self, screen: Screen[None], state: ReviewController) -> None:
        self.screen = screen
        self.state = state
        self.services = state.services

    def toggle(self) -> None:
        """Show or hide the dataset's labelling guidelines beside the item."""
        panel = self.screen.query_one(GuidelinesPanel)
        if panel.display:
            self._show(False)
            return
        guideline = self.services.guidelines.latest(self.state.dataset)
        if guideline is None:
            self.screen.notify(
                f"No guidelines for {self.state.dataset} yet: "
                f"`w2c guidelines set {self.state.dataset} FILE.md` adds them.",
                severity="warning",
                markup=False,
            )
            return
        self._open(guideline)

    def offer(self) -> None:
        """Open the guidelines once on an annotator's first visit (and once per new version)."""
        guideline = self.services.guidelines.unseen(self.state.dataset, self.state.annotator)
        if guideline is None:
            return
        self._open(guideline)
        self.screen.notify(
            f"Labelling guidelines for {guideline.dataset}, version {guideline.version}. "
            "G hides them and shows them again.",
            title="Guidelines",
            timeout=6,
            markup=False,
        )

    def _open(self, guideline: Guideline) -> None:
        """Show `guideline` in place of the items list, marked seen by the annotator."""
        self.screen.query_one(GuidelinesPanel).show(guideline)
        self._show(True)
        self.services.guidelines.mark_seen(self.state.annotator, guideline.id)

    def _show(self, on: bool) -> None:
        self.screen.query_one(GuidelinesPanel).display = on
        self.screen.query_one(ItemsList).display = not on
