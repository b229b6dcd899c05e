"""The review screen's read-ahead (issue 21): the next items are read and rendered off the UI
thread, and what was read ahead is shown only while nothing could have changed it; the lines
rendered ahead are the lines Textual would have rendered."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable

from rich.console import Group
from rich.panel import Panel
from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import App, ComposeResult
from textual.style import Style
from textual.visual import RenderOptions, RichVisual
from textual.widgets import Static

from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import ItemDetail
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.review_ahead import FRESH_S, ReadAhead
from w2c_tui.tui.review_views import ReviewController
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.widgets.prerendered import Prerendered, RenderTarget

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def test_a_read_is_kept_only_if_nothing_changed_meanwhile(demo: Services) -> None:
    state = ReviewController(demo, "alice", "demo")
    state.reload()
    ahead = state.cursor.ahead
    plan = state.cursor.ahead_plan()
    assert plan is not None and [index for index, _ in plan.rows][:2] == [1, 2]
    read = state.cursor.read_ahead(plan)
    assert [d.item.id for d in read] == [item_id for _, item_id in plan.rows]
    # an item labelled while the read ran is not kept; the others are
    ahead.written(read[0].item.id)
    kept = ahead.keep(plan, read)
    assert [d.item.id for d in kept] == [d.item.id for d in read[1:]]
    assert ahead.take(read[0].item.id) is None and ahead.take(read[1].item.id) is read[1]
    # a new list (filter, mode, blind, who) drops everything, and any read still running
    plan = ahead.plan([(5, 99)])
    assert plan is not None
    state.toggle_mode()
    assert ahead.take(read[1].item.id) is None
    assert ahead.keep(plan, read) == []


def test_a_read_goes_stale() -> None:
    now = [0.0]
    ahead = ReadAhead(clock=lambda: now[0])
    plan = ahead.plan([(1, 7)])
    assert plan is not None
    detail = object()
    ahead._held[7] = (0.0, detail)  # type: ignore[assignment]
    assert ahead.take(7) is detail
    now[0] = FRESH_S + 1
    assert ahead.take(7) is None  # read again when shown: others may have written meanwhile


def test_moving_shows_what_was_read_ahead_and_labels_read_again(demo: Services) -> None:
    state = ReviewController(demo, "alice", "demo")
    state.reload()
    plan = state.cursor.ahead_plan()
    assert plan is not None
    state.cursor.ahead.keep(plan, state.cursor.read_ahead(plan))
    reads: list[int] = []
    real = demo.review.detail

    def counted(item_id: int, annotator: str | None) -> ItemDetail:
        reads.append(item_id)
        return real(item_id, annotator)

    demo.review.detail = counted  # type: ignore[method-assign]
    try:
        state.move(1)
        assert reads == []  # the next item came from the read-ahead
        first = state.detail
        assert first is not None
        # a label on it: the label is committed, and the item is read again when shown
        assert state.record(Label.DIRECT) is None
        assert state.cursor.ahead.take(first.item.id) is None
    finally:
        demo.review.detail = real  # type: ignore[method-assign]


class Pane(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("", id="body")


async def test_lines_rendered_ahead_equal_textual_own() -> None:
    body = Group(
        Panel(Text("What is the weather in Zürich? " * 6), title=Text("#1/30 · x")),
        Text("gold ", style="dim") + Text("hidden (blind)", style="italic"),
        Text("[1] Direct answer", style="bold reverse"),
        Text('{"name": "get_weather", "arguments": {"city": "Zürich"}}'),
    )
    app = Pane()
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        widget = app.query_one("#body", Static)
        base = widget.visual_style.rich_style
        targets = [
            RenderTarget(w, base, app.console, app.console_options.update(highlight=False, width=w))
            for w in (80, 57)
        ]
        visual = Prerendered(body)
        worker = threading.Thread(target=lambda: [visual.prepare(t) for t in targets])
        worker.start()
        worker.join()
        assert all(visual.is_ready(t) for t in targets)
        for target in targets:
            style = Style.from_rich_style(target.style)
            options = RenderOptions(widget._get_style, widget.styles)
            theirs = RichVisual(widget, body).render_strips(target.width, None, style, options)
            ours = visual.lines(target)
            assert [s.text for s in ours] == [s.text for s in theirs]
            assert [list(s) for s in ours] == [list(s) for s in theirs]
        # another base style (a theme change) renders again, never reuses the wrong lines
        red = RichStyle(bgcolor="red")
        lines = visual.lines(
            RenderTarget(80, red, app.console, app.console_options.update(width=80))
        )
        assert all(seg.style and seg.style.bgcolor for s in lines for seg in s if seg.text.strip())


async def test_review_screen_reads_ahead(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice", dataset="demo", remember_annotator=False)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await wait_review(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        after = screen.state.rows.row(screen.state.index + 1)
        assert after is not None and screen.state.cursor.ahead.take(after.id) is not None
        reads: list[int] = []
        real = demo.review.detail

        def counted(item_id: int, annotator: str | None) -> ItemDetail:
            reads.append(item_id)
            return real(item_id, annotator)

        demo.review.detail = counted  # type: ignore[method-assign]
        try:
            await pilot.press("j")
            await pilot.pause()
            assert screen.state.detail is not None and screen.state.detail.item.id == after.id
            assert after.id not in reads  # shown from the read-ahead
        finally:
            demo.review.detail = real  # type: ignore[method-assign]
