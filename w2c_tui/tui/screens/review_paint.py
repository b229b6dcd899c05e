"""What the review screen shows of its state: the controller's state pushed down to the widgets
(the list, the item, the QA panel, the cards, the reveal line and the status line)."""

from __future__ import annotations

from textual.screen import Screen

from w2c_tui.domain.review import ReviewMode
from w2c_tui.tui.review_views import ReviewController
from w2c_tui.tui.widgets.item_view import ItemView
from w2c_tui.tui.widgets.items_list import ItemsList
from w2c_tui.tui.widgets.qa_panel import QAPanel
from w2c_tui.tui.widgets.responses import ResponsesPanel
from w2c_tui.tui.widgets.reveal_line import RevealLine
from w2c_tui.tui.widgets.status import StatusBar


class ReviewPaint:
    """Pushes a `ReviewController`'s state to the review screen's widgets."""

    def __init__(self, screen: Screen[None], state: ReviewController) -> None:
        self.screen = screen
        self.state = state

    def everything(self) -> None:
        """Every widget, as the state is now."""
        state, screen = self.state, self.screen
        items = screen.query_one(ItemsList)
        changed = state.rows.take_changed()
        if items.count != state.rows.count or items.generation != state.rows.generation:
            items.reset(state.rows.count, state.rows.generation)
        else:  # the same list: repaint only the lines whose rows changed
            for index in changed:
                items.repaint_row(index)
        items.cursor = state.index
        items.hide_gold = state.is_blind
        screen.query_one(ItemView).show(
            state.detail.item if state.detail else None,
            blind=state.gold_hidden,
            facts=state.cursor.facts,
            title=state.cursor.title(),
        )
        qa = screen.query_one(QAPanel)
        if qa.display != (state.mode is ReviewMode.ITEM_QA):  # setting it asks for a layout
            qa.display = state.mode is ReviewMode.ITEM_QA
        if state.detail is not None and state.mode is ReviewMode.ITEM_QA:
            qa.show(state.detail.qa)
        responses = state.mode is ReviewMode.RESPONSES and state.cards
        selected = state.cursor.card_index if responses else None
        screen.query_one(ResponsesPanel).show(
            state.cards, selected, state.annotator, unsaved=state.unsaved
        )
        screen.query_one(RevealLine).show(state.previous or "")
        self.status()

    def status(self) -> None:
        """Refresh the header line (progress is counted again only after a change)."""
        state = self.state
        progress, queue = state.progress()
        count = state.rows.count
        self.screen.query_one(StatusBar).show(
            dataset=state.dataset,
            annotator=state.annotator,
            mode=state.mode_label,
            progress=progress,
            queue=queue,
            pace=state.labels.pace,
            blind=state.is_blind,
            filter_text=state.view.describe(),
            position=f"item {state.index + 1}/{count}" if count else "no items",
            unsaved=state.unsaved is not None,
        )
