"""The review screen's panes paint lines without laying the screen out (issue 21): moving on
and labelling repaint the panes alone, the cards look as bordered widgets did, the selected
card is scrolled into view, and a text that keeps its rows is updated in place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from paint_checks import Review, calls, opened
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widgets import Static

from w2c_tui.domain.review import ReviewMode
from w2c_tui.services import Services
from w2c_tui.tui.widgets.item_view import ItemView
from w2c_tui.tui.widgets.items_list import ItemsList
from w2c_tui.tui.widgets.kept_scrollbar import KeptScrollBar
from w2c_tui.tui.widgets.responses import ResponsesPanel
from w2c_tui.tui.widgets.same_size import update_same_size


def layouts(screen: Screen[Any]) -> AbstractContextManager[list[int]]:
    """Count the screen's layout passes while the block runs."""
    return calls(screen, "_refresh_layout")


async def test_moving_on_repaints_the_panes_and_lays_nothing_out(
    demo: Services, wait_review: Review
) -> None:
    async with opened(demo, wait_review) as (pilot, screen):
        items, cards = screen.query_one(ItemView), screen.query_one(ResponsesPanel)
        heights = set()
        with layouts(screen) as count:
            for _ in range(6):
                await pilot.press("j")
                await pilot.pause()
                detail = screen.state.detail
                assert detail is not None
                shown = items.text()
                assert detail.item.question.split()[0] in shown
                heights.add(len(items.lines))
                assert items.virtual_size.height == len(items.lines)
                assert len(cards.spans) == len(screen.state.cards) == 2
        assert count[0] == 0
        assert len(heights) > 1  # items of other heights, and still no layout


async def test_cards_are_drawn_as_bordered_widgets_were(
    demo: Services, wait_review: Review
) -> None:
    async with opened(demo, wait_review) as (pilot, screen):
        panel = screen.query_one(ResponsesPanel)
        assert screen.mode is ReviewMode.RESPONSES and screen.state.cursor.card_index == 0
        (first, n_first), (second, _) = panel.spans
        width = panel.line_width
        top, bottom = panel.lines[first].text, panel.lines[first + n_first - 1].text
        assert top.startswith("┏━ 1. ") and top.endswith("┓")  # selected: heavy
        assert bottom.startswith("┗━") and bottom.endswith(" press 1–4 ━┛")
        assert panel.lines[second].text.startswith("╭─ 2. ")  # the other: round
        assert all(line.cell_length == width for line in panel.lines)
        assert all(
            line.text.startswith("┃ ") and line.text.endswith(" ┃")
            for line in panel.lines[first + 1 : first + n_first - 1]
        )
        assert panel.lines[first + n_first].text.strip() == ""  # the space between cards
        await pilot.press("1")  # labels the first response, selects the second
        await pilot.pause()
        first, n_first = panel.spans[0]  # the card says more once labelled
        assert panel.lines[first + n_first - 1].text.endswith(" you: direct ─╯")
        assert panel.lines[panel.spans[1][0]].text.startswith("┏━ 2. ")


async def test_the_selected_card_is_scrolled_into_view(demo: Services, wait_review: Review) -> None:
    async with opened(demo, wait_review, (160, 16)) as (pilot, screen):
        panel = screen.query_one(ResponsesPanel)
        height = panel.scrollable_content_region.height
        assert panel.virtual_size.height > height  # the second card starts below the fold
        assert panel.scroll_offset.y == 0
        await pilot.press("1")
        await pilot.pause()
        start, count = panel.spans[1]
        top = panel.scroll_offset.y
        assert top > 0
        assert top <= start and (start + count <= top + height or top == start)


async def test_scrolling_the_list_leaves_the_map_of_the_screen_alone(
    demo: Services, wait_review: Review
) -> None:
    """The items list's scrollbar is hidden: scrolling the list tells it nothing, so Textual
    does not rebuild its map of the whole screen each step (a refresh of a widget that is
    not on screen would)."""
    async with opened(demo, wait_review, (160, 12)) as (pilot, screen):
        items = screen.query_one(ItemsList)
        with calls(screen._compositor, "_arrange_root") as builds:
            for _ in range(items.scrollable_content_region.height + 3):
                await pilot.press("j")
                await pilot.pause()
        assert items.scroll_offset.y >= 3  # it scrolled
        assert items.cursor - items.scroll_offset.y < items.scrollable_content_region.height
        assert builds[0] == 0


async def test_the_item_panes_scrollbar_is_drawn_once_per_bar(
    demo: Services, wait_review: Review
) -> None:
    """Back on an item seen before, the item pane's scrollbar paints the lines it kept, and
    they are the lines Textual draws for that bar (a new theme draws them anew)."""
    async with opened(demo, wait_review, (160, 16)) as (pilot, screen):
        bar = screen.query_one(ItemView).vertical_scrollbar
        assert isinstance(bar, KeptScrollBar) and bar.display
        items = screen.query_one(ItemView)
        first = len(items.lines)

        def drawn_by_textual() -> list[Strip]:
            bar._styles_cache.clear()
            return ScrollBar.render_lines(bar, bar.size.region)

        async def press(key: str, times: int = 1) -> None:
            for _ in range(times):
                await pilot.press(key)
                await pilot.pause()

        steps = 0
        with calls(bar._styles_cache, "render_line") as styled:
            while len(items.lines) == first:  # on to an item of another length
                await press("j")
                steps += 1
        # a new bar is made of lines seen before (the track, the thumb) but perhaps the
        # thumb's ends: Textual styles those lines alone, not the bar's every line
        assert styled[0] <= 2 < bar.size.height
        assert bar.render_lines(bar.size.region) == drawn_by_textual()
        with calls(bar._styles_cache, "render") as draws:
            await press("k", steps)  # back to the first item and on again: bars drawn before
            assert len(items.lines) == first
            await press("j", steps)
            assert len(items.lines) != first
        assert draws[0] == 0
        await press("k", steps)
        assert bar.render_lines(bar.size.region) == drawn_by_textual()
        before = bar.render_lines(bar.size.region)
        screen.app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        after = bar.render_lines(bar.size.region)
        assert after != before and after == drawn_by_textual()


class OneStatic(App[None]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="text")


@asynccontextmanager
async def one_static(
    text: str, min_height: int | None = None
) -> AsyncIterator[tuple[Pilot[None], Static, list[int]]]:
    """An app of one `Static` showing `text` at 40×10 (its `min-height` set if given), and
    the count of its screen's layout passes from then on."""
    app = OneStatic(text)
    async with app.run_test(size=(40, 10)) as pilot:
        widget = app.query_one("#text", Static)
        if min_height is not None:
            widget.styles.min_height = min_height
        await pilot.pause()
        with layouts(app.screen) as count:
            yield pilot, widget, count


async def test_a_text_that_keeps_its_rows_is_updated_in_place() -> None:
    async with one_static("one line") as (pilot, widget, count):
        update_same_size(widget, "another line")
        await pilot.pause()
        assert count[0] == 0 and widget.content == "another line"
        update_same_size(widget, "another line")  # the same text: nothing at all
        await pilot.pause()
        assert count[0] == 0
        update_same_size(widget, "a line too long for forty columns, so it wraps")
        await pilot.pause()
        assert count[0] >= 1 and widget.size.height == 2


async def test_a_text_within_the_min_height_is_updated_in_place() -> None:
    """The reveal line keeps two rows (app.tcss): one- and two-row texts swap without a
    layout pass; a third row lays it out again."""
    wrapping = "a line too long for forty columns, so it wraps"
    async with one_static(wrapping, min_height=2) as (pilot, widget, count):
        update_same_size(widget, "one line")
        await pilot.pause()
        update_same_size(widget, "another line too long for forty columns")
        await pilot.pause()
        assert count[0] == 0 and widget.size.height == 2
        update_same_size(widget, "and a line too long even for two rows of forty " * 2)
        await pilot.pause()
        assert count[0] >= 1 and widget.size.height == 3


async def test_narrow_cards_keep_their_width_and_cut_long_labels(
    demo: Services, wait_review: Review
) -> None:
    async with opened(demo, wait_review, (84, 30)) as (_, screen):
        panel = screen.query_one(ResponsesPanel)
        width = panel.line_width
        assert 0 < width < 30
        assert panel.lines and all(line.cell_length == width for line in panel.lines)
        bottom = panel.lines[panel.spans[0][0] + panel.spans[0][1] - 1].text
        assert "… " in bottom or " press 1–4 " in bottom  # cut with an ellipsis if too long
        top = panel.lines[panel.spans[0][0]].text
        assert top.startswith("┏━ 1.") and top.endswith("┓")


async def test_no_responses_says_so(
    services: Services, judge_file: Path, wait_review: Review
) -> None:
    services.imports.import_path(judge_file)
    async with opened(services, wait_review) as (pilot, screen):
        panel = screen.query_one(ResponsesPanel)
        assert panel.spans == [] and "No model responses or scores" in panel.text()
        await pilot.press("j")
        await pilot.pause()
        assert "No model responses or scores" in panel.text()


async def test_a_new_theme_makes_the_lines_again(demo: Services, wait_review: Review) -> None:
    async with opened(demo, wait_review) as (pilot, screen):
        items, cards = screen.query_one(ItemView), screen.query_one(ResponsesPanel)

        def backgrounds() -> set[object]:
            return {
                seg.style.bgcolor
                for pane in (items, cards)
                for line in pane.lines[:3]
                for seg in line
                if seg.style is not None
            }

        before = backgrounds()
        assert screen.app.theme != "textual-light"
        screen.app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        after = backgrounds()
        assert before and after and before.isdisjoint(after)
