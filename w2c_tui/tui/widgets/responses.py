"""The responses pane: one card per response with every rater's verdict and the MCQ scores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size
from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.strip import Strip

from w2c_tui.domain.names import printable
from w2c_tui.tui.cards import Card
from w2c_tui.tui.widgets.card_body import CardKey, card_body, card_key
from w2c_tui.tui.widgets.lines_pane import LinesPane
from w2c_tui.tui.widgets.prerendered import Prerendered, RenderTarget, VisualCache

if TYPE_CHECKING:
    from w2c_tui.tui.review_state import PendingLabel

EMPTY = Prerendered(
    Text("No model responses or scores for this item yet (`w2c import` adds a model's results).")
)
CARD_INSET = 4
"""A card's border and padding, left and right: its body is this much narrower than the pane."""
ROUND = ("╭", "─", "╮", "│", "╰", "╯")
HEAVY = ("┏", "━", "┓", "┃", "┗", "┛")
"""A card's border: round, heavy when it is selected or holds a label not saved."""


@dataclass(frozen=True, slots=True)
class Shown:
    """One card as the pane draws it: its body and what its border says."""

    body: Prerendered
    title: str
    subtitle: str
    selected: bool
    labelled: bool
    unsaved: bool


class ResponsesPanel(LinesPane):
    """Cards for the current item, drawn by the pane itself (one line list, no widget per
    card: a new item repaints the pane and lays nothing out); the screen says which one is
    selected."""

    DEFAULT_CSS = """
    ResponsesPanel { padding: 0 1; }
    ResponsesPanel > .responses--empty { color: $text-muted; }
    ResponsesPanel > .responses--border { color: $panel-lighten-2; }
    ResponsesPanel > .responses--selected { color: $accent; }
    ResponsesPanel > .responses--unsaved { color: $error; }
    ResponsesPanel > .responses--labelled { color: $success; }
    """
    COMPONENT_CLASSES = {
        "responses--empty",
        "responses--border",
        "responses--selected",
        "responses--unsaved",
        "responses--labelled",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bodies: VisualCache[CardKey] = VisualCache(32)
        """The last cards' rendered lines (and those read ahead: `ReviewScreen`)."""
        self.cards: list[Shown] = []
        """The cards on screen, in order."""
        self.spans: list[tuple[int, int]] = []
        """Each card's first line and line count in `lines`."""

    def card_target(self) -> RenderTarget | None:
        """Where a card's body will be painted (None before the first layout)."""
        return self.render_target(CARD_INSET)

    def show(
        self,
        cards: list[Card],
        selected: int | None,
        annotator: str | None,
        *,
        unsaved: PendingLabel | None = None,
    ) -> None:
        """Show the cards (`selected` is an index into `cards`), the selected one scrolled
        into view."""
        shown = []
        for index, card in enumerate(cards):
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
                visual = Prerendered(card_body(card, annotator, pending))
                self.bodies.put(key, card, visual)
            shown.append(
                Shown(
                    body=visual,
                    title=_title(card),
                    subtitle=_subtitle(card, pending, selected is not None),
                    selected=index == selected,
                    labelled=card.mine is not None,
                    unsaved=pending is not None,
                )
            )
        self.cards = shown
        self.update_lines()
        if selected is not None and 0 <= selected < len(self.spans):
            self._scroll_into_view(*self.spans[selected])

    def sources(self) -> list[RenderableType]:
        if not self.cards:
            return [EMPTY.renderable]
        out: list[RenderableType] = []
        for card in self.cards:
            out += [Text(card.title), card.body.renderable, Text(card.subtitle)]
        return out

    def _scroll_into_view(self, start: int, count: int) -> None:
        top = round(self.scroll_offset.y)
        height = self.scrollable_content_region.height
        if start < top or count > height:
            self.scroll_to(y=start, animate=False)
        elif start + count > top + height:
            self.scroll_to(y=start + count - height, animate=False)

    def make_lines(self) -> list[Strip]:
        self.spans = []
        width = self.line_width
        base = self.visual_style.rich_style
        if not self.cards:
            target = self.render_target(2)
            if target is None:
                return []
            muted = base + self.get_component_rich_style("responses--empty", partial=True)
            blank = Strip.blank(width, base)
            return [blank] + [
                Strip.join([Strip.blank(1, base), line.apply_style(muted)])
                for line in EMPTY.lines(target)
            ]
        target = self.card_target()
        if target is None:
            return []
        style_of = self.get_component_rich_style
        lines: list[Strip] = []
        for card in self.cards:
            kind = (
                "responses--unsaved"
                if card.unsaved
                else "responses--selected"
                if card.selected
                else "responses--border"
            )
            border = base + style_of(kind, partial=True)
            label = (  # the subtitle: green once labelled, red while the label is not saved
                base + style_of("responses--labelled", partial=True)
                if card.labelled and not card.unsaved
                else border
            )
            box = HEAVY if card.selected or card.unsaved else ROUND
            start = len(lines)
            lines.append(_edge(box[0], box[1], box[2], card.title, width, border, border, top=True))
            pad = Segment(" ", base)
            side = Segment(box[3], border)
            inner = target.width
            for line in card.body.lines(target):
                body = line.adjust_cell_length(inner, base)
                lines.append(Strip([side, pad, *body, pad, side], width))
            lines.append(_edge(box[4], box[1], box[5], card.subtitle, width, border, label))
            self.spans.append((start, len(lines) - start))
            lines.append(Strip.blank(width, base))  # the space between cards
        return lines


def _edge(
    left: str,
    fill: str,
    right: str,
    label: str,
    width: int,
    style: RichStyle,
    label_style: RichStyle,
    *,
    top: bool = False,
) -> Strip:
    """A card's top (the label after one stroke, as Textual puts a border title) or bottom
    line (the label before the last stroke, as Textual puts a border subtitle)."""
    room = width - 4  # the corners, a stroke, and at least one more
    text = f" {label} " if label else ""
    if cell_len(text) > room:
        text = set_cell_size(text, room - 2) + "… " if room > 3 else ""
    rest = max(width - 3 - cell_len(text), 0)
    if top:
        parts = [
            Segment(left + fill, style),
            Segment(text, label_style),
            Segment(fill * rest, style),
            Segment(right, style),
        ]
    else:
        parts = [
            Segment(left + fill * rest, style),
            Segment(text, label_style),
            Segment(fill + right, style),
        ]
    return Strip(parts, width)


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
