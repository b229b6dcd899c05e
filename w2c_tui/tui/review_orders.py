"""The review list's computed orders: most informative first (`w2c next`) and the
disagreement queue; each switches the other off."""

from __future__ import annotations

from w2c_tui.domain.review import ReviewMode
from w2c_tui.tui.review_cursor import ReviewCursor
from w2c_tui.tui.review_labelling import LabelDesk
from w2c_tui.tui.review_lens import ReviewLens
from w2c_tui.tui.review_state import Notice


class ListOrders:
    """Switches the list between its own order and a ranking computed by the services."""

    def __init__(self, lens: ReviewLens, cursor: ReviewCursor, labels: LabelDesk) -> None:
        self.lens = lens
        self.cursor = cursor
        self.labels = labels

    def cycle_order(self) -> Notice | None:
        """The list's own order ↔ most informative first (`w2c next`'s order)."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        if not self.lens.filter.informative and self.lens.is_blind:
            return Notice(
                "Most informative first comes from how the automated raters disagree: "
                "turn blind mode off (b) first.",
                severity="warning",
            )
        if not self.lens.filter.informative and self.lens.mode is not ReviewMode.RESPONSES:
            return Notice(
                "Most informative first orders responses: switch to response labelling (m) first.",
                severity="warning",
            )
        self.lens.filter = self.lens.filter.with_(
            informative=not self.lens.filter.informative, ranked=False
        )
        self.cursor.index = 0
        self.cursor.reload()
        if self.lens.filter.informative:
            return Notice(
                "Most informative first: the responses whose label most narrows the judge's "
                "agreement interval (`w2c next` says when to stop). o: the list's own order."
            )
        return Notice("The list's own order.")

    def toggle_ranked(self) -> Notice | None:
        """Disagreement queue on / off: from its top, most disputed first (human splits before
        the units only the machines dispute); the list shows each item's split."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        self.lens.filter = self.lens.filter.with_(
            ranked=not self.lens.filter.ranked, informative=False
        )
        self.cursor.index = 0
        self.cursor.reload()  # the queue opens at its top, not at the current item
        if self.lens.filter.ranked:
            blind = (
                " Blind: only items you have finished are in it (b off, or finish your queue, "
                "for the rest)."
                if self.lens.is_blind
                else ""
            )
            return Notice(
                f"Disagreement queue: {self.cursor.rows.count} item(s), the humans' splits first; "
                f"the number beside each is how split its readings are. r leaves it.{blind}"
            )
        return Notice("Every item (disagreement queue left).")
