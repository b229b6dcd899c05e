"""The review screen's read-ahead: once a move is painted, the next items are read and their
panes rendered in a thread worker, so that moving on costs Textual's layout and paint alone.

The worker reads the details (tui/review_ahead.py decides which, and which results may be
kept) and renders each item's pane and response cards to lines at the widths the panes have
now; no widget is touched off the UI thread: the widths, styles
and console are taken before the worker starts, and the results are handed to the widgets'
caches on the UI thread.
"""

from __future__ import annotations

import time
from contextlib import suppress
from dataclasses import dataclass, field

from textual.screen import Screen

from w2c_tui.domain.models import Item, ItemDetail
from w2c_tui.tui.cards import Card
from w2c_tui.tui.collector import collect_idle
from w2c_tui.tui.review_ahead import AheadPlan
from w2c_tui.tui.review_cursor import ReviewCursor
from w2c_tui.tui.widgets.card_body import CardKey, card_body, card_key
from w2c_tui.tui.widgets.item_view import BodyKey, ItemView, body_key, item_body
from w2c_tui.tui.widgets.prerendered import Prerendered, RenderTarget
from w2c_tui.tui.widgets.responses import ResponsesPanel

AHEAD_GROUP = "read-ahead"
"""The workers' group (one runs at a time)."""
SETTLE_S = 0.01
"""The worker waits this long before it reads: a move may still be laying out a last time
(Python runs one thread at a time, so a worker running then would slow that paint)."""


@dataclass(frozen=True, slots=True)
class Targets:
    """Where the panes will be painted (taken on the UI thread)."""

    annotator: str
    tools_open: bool
    body: RenderTarget | None
    cards: RenderTarget | None
    """None before the panes' first layout: nothing is rendered ahead then."""


@dataclass(slots=True)
class Prepared:
    """What one worker read and rendered."""

    plan: AheadPlan
    details: list[ItemDetail] = field(default_factory=list)
    bodies: list[tuple[BodyKey, Item, Prerendered]] = field(default_factory=list)
    cards: list[tuple[int, CardKey, Card, Prerendered]] = field(default_factory=list)


def prepare(cursor: ReviewCursor, plan: AheadPlan, targets: Targets) -> Prepared:
    """Read `plan`'s items and render their panes for `targets` (runs off the UI thread)."""
    out = Prepared(plan)
    out.details = cursor.read_ahead(plan)
    for detail, (index, _) in zip(out.details, plan.rows, strict=True):
        shown = cursor.shown(detail, index)
        item = detail.item
        if targets.body is not None:
            body = Prerendered(
                item_body(item, shown.gold_hidden, shown.facts, shown.title, targets.tools_open)
            )
            body.prepare(targets.body)
            where = body_key(item, shown.gold_hidden, shown.facts, shown.title, targets.tools_open)
            out.bodies.append((where, item, body))
        if targets.cards is not None:
            for card in shown.cards:
                visual = Prerendered(card_body(card, targets.annotator, None))
                visual.prepare(targets.cards)
                key = card_key(card, targets.annotator, None)
                out.cards.append((item.id, key, card, visual))
    return out


class Prefetch:
    """Starts the read-ahead after each repaint and hands its results to the widgets."""

    def __init__(
        self, screen: Screen[None], cursor: ReviewCursor, items: ItemView, cards: ResponsesPanel
    ) -> None:
        self.screen = screen
        self.cursor = cursor
        self.items = items
        self.cards = cards
        self._running = False
        self._again = False

    def schedule(self) -> None:
        """Read ahead once the screen is painted (the move itself is never slowed by it)."""
        self.screen.call_after_refresh(self._start)

    def _start(self) -> None:
        if self._running:  # one at a time: the next starts when this one is done
            self._again = True
            return
        plan = self.cursor.ahead_plan()
        if plan is None or not self.screen.is_attached:
            self.screen.set_timer(SETTLE_S, collect_idle)  # after the move's last paint
            return
        targets = Targets(
            annotator=self.cursor.scope.annotator,
            tools_open=self.items.tools_open,
            body=self.items.render_target(),
            cards=self.cards.card_target(),
        )
        self._running = True
        cursor, app = self.cursor, self.screen.app

        def work() -> None:
            time.sleep(SETTLE_S)
            try:
                prepared: Prepared | None = prepare(cursor, plan, targets)
            except Exception:  # a read ahead that fails costs nothing: the item is read when shown
                prepared = None
            with suppress(RuntimeError):  # the app is closing
                app.call_from_thread(self._done, prepared)

        self.screen.run_worker(work, thread=True, group=AHEAD_GROUP, exit_on_error=False)

    def _done(self, prepared: Prepared | None) -> None:
        self._running = False
        collect_idle()  # the move's garbage, while the annotator reads
        if prepared is not None:
            kept = {d.item.id for d in self.cursor.ahead.keep(prepared.plan, prepared.details)}
            for key, item, body in prepared.bodies:
                if item.id in kept:
                    self.items.bodies.put(key, item, body)
            for item_id, card_id, card, visual in prepared.cards:
                if item_id in kept:
                    self.cards.bodies.put(card_id, card, visual)
        if self._again:
            self._again = False
            self._start()
