"""The responses pane: one card per response with every rater's verdict and the MCQ scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from w2c_tui.domain.names import printable
from w2c_tui.tui.cards import Card
from w2c_tui.tui.widgets.card_body import CardKey, card_body, card_key
from w2c_tui.tui.widgets.prerendered import (
    Prerendered,
    RenderTarget,
    VisualCache,
    scroll_targets,
)

if TYPE_CHECKING:
    from w2c_tui.tui.review_state import PendingLabel


class ResponseCard(Static):
    """A response, the annotator's label, and (once revealed) the other raters."""

    DEFAULT_CSS = """
    ResponseCard { border: round $panel-lighten-2; padding: 0 1; margin-bottom: 1; }
    ResponseCard.-selected { border: heavy $accent; }
    ResponseCard.-labelled { border-subtitle-color: $success; }
    ResponseCard.-unsaved { border: heavy $error; border-subtitle-color: $error; }
    """

    def __init__(self, *, markup: bool = False) -> None:
        super().__init__(markup=markup)
        self.set_reactive(Widget.auto_links, False)  # no links in a card: lines used as made
        self.titles: tuple[str, str] | None = None
        """The border's title and subtitle shown (set again only when they change: each set
        repaints the card)."""

    def show_titles(self, title: str, subtitle: str) -> None:
        """Title and subtitle on the border (a Text: never read as markup)."""
        if self.titles != (title, subtitle):
            self.titles = (title, subtitle)
            self.border_title = Text(title)
            self.border_subtitle = Text(subtitle)


class ResponsesPanel(VerticalScroll):
    """Cards for the current item; the screen says which one is selected."""

    DEFAULT_CSS = """
    ResponsesPanel { padding: 0 1; }
    ResponsesPanel > .responses--empty { color: $text-muted; padding: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bodies: VisualCache[CardKey] = VisualCache(32)
        """The last cards' rendered lines (and those read ahead: `ReviewScreen`)."""

    def render_targets(self) -> tuple[RenderTarget, ...]:
        """Where a card's lines will be painted: the cards' content width without and with
        the scrollbar many lines bring; none while no card is on screen."""
        card = next(iter(self.query(ResponseCard)), None)
        if card is None:
            return ()
        return scroll_targets(self, card, card.styles.gutter.width + card.styles.margin.width)

    def show(
        self,
        cards: list[Card],
        selected: int | None,
        annotator: str | None,
        *,
        unsaved: PendingLabel | None = None,
    ) -> None:
        """Show the cards (`selected` is an index into `cards`).

        Moving from item to item usually keeps the number of cards: the card widgets are then
        updated in place, which costs far less than removing and mounting new ones.
        """
        existing = list(self.query(ResponseCard))
        if not cards and not existing and self.query(".responses--empty"):
            return  # still nothing to show: keep the message (no unmount and mount per item)
        if not cards or len(existing) != len(cards):
            self.remove_children()
            existing = []
        if not cards:
            self.mount(
                Static(
                    "No model responses or scores for this item yet "
                    "(`w2c import` adds a model's results).",
                    classes="responses--empty",
                    markup=False,
                )
            )
            return
        widgets = existing or [ResponseCard(markup=False) for _ in cards]
        for index, (widget, card) in enumerate(zip(widgets, cards, strict=True)):
            pending = (
                unsaved
                if unsaved is not None
                and card.response is not None
                and unsaved.response_id == card.response.id
                else None
            )
            key = card_key(card, annotator, pending)
            visual = self.bodies.get(key, card)
            if visual is None:
                style = widget.visual_style.rich_style if widget.is_mounted else None
                visual = Prerendered(card_body(card, annotator, pending), style)
                self.bodies.put(key, card, visual)
            if widget.content is not visual:
                widget.update(visual)
            widget.show_titles(_title(card), _subtitle(card, pending, selected is not None))
            widget.set_class(index == selected, "-selected")
            widget.set_class(card.mine is not None, "-labelled")
            widget.set_class(pending is not None, "-unsaved")
        if not existing:
            self.mount_all(widgets)
        if selected is not None:
            self.call_after_refresh(widgets[selected].scroll_visible, animate=False)


def _subtitle(card: Card, pending: PendingLabel | None, labelling: bool) -> str:
    if pending is not None:
        shown = pending.label.value if pending.label else "cleared"
        return f"NOT SAVED: {shown} (ctrl+s retries)"
    if card.mine and card.mine.label:
        return f"you: {card.mine.label.value}"
    if not card.labelable:
        return "scores only"
    if not labelling:
        return "m: label responses"
    return "press 1–4" if card.queued else "not in your queue · 1–4 labels it anyway"


def _title(card: Card) -> str:
    if card.revealed:
        return f"{card.number}. {printable(card.target_model)}"
    return f"{card.number}. model hidden (blind)"
